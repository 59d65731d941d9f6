"""The run flags are declared once (ldiv_db/core/run_flags.py): every declared flag exists at each edge it
names (the command-line flag, documented in --help; the job file's [anonymize] key; the API keyword),
and a wrong value is refused at every edge with the same message, before any database is opened."""

from __future__ import annotations

import re
from dataclasses import Field
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from ldiv_db.cli.main import main
from ldiv_db.core.run_flags import AnonymizeFlags, CheckFlags, Flag, declared
from ldiv_db.errors import BadInput

# What each kind says of a wrong value (written here, not read from the code), and a wrong value of a
# type no edge accepts
EXPECTED = {
    "bool": ("must be true or false", 3),
    "int": ("must be an integer in [0, ", -1),
    "text": ("must be a column name", 5),
    "names": ("must be a list of column names", 5),
}
ANON = ["--table", "p", "--qi", "zip,sex", "--sa", "occ", "--algorithm", "tp", "--l", "2", "--output", "r"]
CHECK = ["--table", "p", "--qi", "zip", "--sa", "occ"]
JOB = """database = "never.duckdb"
[source]
table = "p"
[anonymize]
qi = ["zip", "sex"]
sa = "occ"
algorithm = "tp"
output = "r"
l = 2
"""


def _flags(group: type[Any]) -> list[tuple[str, Field[Any], Flag]]:
    name = "anonymize" if group is AnonymizeFlags else "check"
    return [(name, f, d) for f, d in declared(group)]


ALL = _flags(AnonymizeFlags) + _flags(CheckFlags)


def _said(err: str, spelled: str) -> str:
    """The problem as an error states it, without the spelling of the flag and the value given."""
    first = err.strip().removeprefix("error: ").split("\n")[0]
    first = re.sub(r"^job file \S+: ", "", first)
    assert first.startswith(spelled), (spelled, first)
    return first[len(spelled) :].split(", got ")[0]


def _cli_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    assert main(args) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("command", "f", "d"), ALL, ids=[f"{c}-{f.name}" for c, f, _ in ALL])
def test_every_run_flag_exists_at_its_edges_and_is_documented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, f: Field[Any], d: Flag
) -> None:
    flag = d.flag_of(f.name)
    assert flag is not None, "every run flag has a command-line flag"
    with pytest.raises(SystemExit):
        main([command, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f" {flag} " in shown or f" {flag}\n" in shown, flag
    assert " ".join((d.cli_help or d.help).split()) in shown, flag  # its help, whole
    if command == "check":
        assert not d.job, "a check has no job file"
    elif not d.job or not d.api:
        assert d.absent, f"{f.name}: an edge without it says why"
    if d.job:  # a valid value is taken, an unknown key is not: the key exists
        other = "false" if f.default is True else "true"  # a boolean: the one that is not the default
        value = {"bool": other, "int": "7", "text": '"zip"', "names": '["zip"]'}[d.kind]
        job = tmp_path / "job.toml"
        job.write_text(JOB + f"{f.name} = {value}\n")
        read = ldiv_db.Job.read(job)
        assert getattr(read.call.flags, f.name) not in (None, f.default)
    if d.api:
        kw = {f.name: not f.default if d.kind == "bool" else "zip" if d.kind in ("text", "names") else 7}
        got = _api_flags(command, kw)
        assert getattr(got, f.name) not in (None, f.default), f.name


def _api_flags(command: str, kw: dict[str, Any]) -> Any:
    """The flags the API builds from ``kw``, read where the command receives them."""
    from ldiv_db.commands.anonymize import AnonymizeCall
    from ldiv_db.verify.check import check_flags

    if command == "anonymize":
        return AnonymizeCall.from_api("p", "zip", "occ", "r", {"algorithm": "tp", "l": 2, **kw}).flags
    return check_flags(dict(kw))


@pytest.mark.parametrize(("command", "f", "d"), ALL, ids=[f"{c}-{f.name}" for c, f, _ in ALL])
def test_a_wrong_value_is_refused_with_the_same_message_at_every_edge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, f: Field[Any], d: Flag
) -> None:
    expected, wrong = EXPECTED[d.kind]
    never = tmp_path / "never.duckdb"
    said: dict[str, str] = {}
    if d.api:
        with pytest.raises(BadInput) as exc:
            if command == "anonymize":
                ldiv_db.anonymize(
                    str(never), "p", "zip,sex", "occ", algorithm="tp", l=2, output="r", **{f.name: wrong}
                )
            else:
                ldiv_db.check(str(never), "p", "zip", "occ", **{f.name: wrong})
        said["api"] = _said(exc.value.message, f.name)
    if d.job:
        job = tmp_path / "job.toml"
        job.write_text(JOB + f"{f.name} = {wrong}\n")
        said["job"] = _said(_cli_error(capsys, ["run", str(job)]), f"anonymize.{f.name}")
    if d.kind == "int":  # the command line gives text: the same number, refused alike
        base = ANON if command == "anonymize" else CHECK
        err = _cli_error(capsys, [command, str(never), *base, str(d.flag_of(f.name)), str(wrong)])
        said["cli"] = _said(err, str(d.flag_of(f.name)))
    assert said, "every flag is refused somewhere"
    for edge, text in said.items():
        assert text.startswith(" " + expected), (edge, text)
    assert len(set(said.values())) == 1, said
    assert not never.exists()


def test_an_empty_column_name_is_refused_alike_on_the_command_line_and_in_the_api(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    never = tmp_path / "never.duckdb"
    err = _cli_error(capsys, ["anonymize", str(never), *ANON, "--class-column", ""])
    with pytest.raises(BadInput) as exc:
        ldiv_db.anonymize(str(never), "p", "zip,sex", "occ", algorithm="tp", l=2, output="r", class_column="")
    assert "error: the class column '' is not a column name" in err
    assert exc.value.message == "the class column '' is not a column name"
    assert not never.exists()


def test_text_booleans_are_the_apis_and_not_the_job_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The API takes the command line's words for a boolean (as before: kl="false"); a job file's
    booleans are TOML booleans."""
    from ldiv_db.commands.anonymize import AnonymizeCall

    call = AnonymizeCall.from_api("p", "zip", "occ", "r", {"algorithm": "tp", "l": 2, "kl": "false"})
    assert call.flags.kl is False
    job = tmp_path / "job.toml"
    job.write_text(JOB + 'kl = "false"\n')
    err = _cli_error(capsys, ["run", str(job)])
    assert "anonymize.kl must be true or false, got 'false' (str)" in err
