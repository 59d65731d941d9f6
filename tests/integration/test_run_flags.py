"""The run flags are declared once (ldiv_db/core/run_flags.py): every declared flag of anonymize, check,
metrics, compare and risk exists at each edge it names (the command-line flag, documented in --help;
the job file's [anonymize] key; the API keyword), and a wrong value is refused at every edge with the
same message, before any database is opened."""

from __future__ import annotations

import re
from dataclasses import Field
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from ldiv_db.cli.main import main
from ldiv_db.commands.anonymize import AnonymizeCall
from ldiv_db.core.run_flags import (
    AnonymizeFlags,
    CheckFlags,
    CompareFlags,
    Flag,
    MetricsFlags,
    RiskFlags,
    api_flags,
    declared,
)
from ldiv_db.errors import BadInput
from ldiv_db.verify.check import check_flags

# What each kind says of a wrong value (written here, not read from the code), and a wrong value of a
# type no edge accepts; "raw" values are read against the data (a population size against the rows)
EXPECTED = {
    "bool": ("must be true or false", 3),
    "int": ("must be an integer", -1),
    "number": ("must be a number in [0, ", -1),
    "text": ("must be a column name", 5),
    "file": ("must be a file path", 5),
    "names": ("must be a list of column names", 5),
    "numbers": ("must be a list of numbers", 5),
}
GROUPS = {
    "anonymize": AnonymizeFlags,
    "check": CheckFlags,
    "metrics": MetricsFlags,
    "compare": CompareFlags,
    "risk": RiskFlags,
}
# each command's other arguments, for its flags on the command line
ARGS = {
    "anonymize": ["--table", "p", "--qi", "zip,sex", "--sa", "occ", "--algorithm", "tp", "--l", "2",
                  "--output", "r"],
    "check": ["--table", "p", "--qi", "zip", "--sa", "occ"],
    "metrics": ["--source", "p", "--release", "r", "--qi", "zip", "--sa", "occ"],
    "compare": ["--table", "p", "--qi", "zip", "--sa", "occ", "--l", "2"],
    "risk": ["--table", "p"],
}  # fmt: skip
ANON = ARGS["anonymize"]
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


def _api(command: str, db: Path, kw: dict[str, Any]) -> Any:
    """The public function of ``command`` called with ``kw`` (it must refuse before opening ``db``)."""
    calls = {
        "anonymize": lambda: ldiv_db.anonymize(str(db), "p", "zip,sex", "occ", algorithm="tp", l=2, output="r", **kw),
        "check": lambda: ldiv_db.check(str(db), "p", "zip", "occ", **kw),
        "metrics": lambda: ldiv_db.metrics(str(db), "p", "r", "zip", "occ", **kw),
        "compare": lambda: ldiv_db.compare(str(db), "p", "zip", "occ", 2, **kw),
        "risk": lambda: ldiv_db.risk(str(db), "p", **kw),
    }  # fmt: skip
    return calls[command]()


ALL = [(command, f, d) for command, group in GROUPS.items() for f, d in declared(group)]
IDS = [f"{c}-{f.name}" for c, f, _ in ALL]


def _said(err: str, spelled: str | None) -> str:
    """The problem as an error states it, without the spelling of the flag and the value given."""
    first = err.strip().removeprefix("error: ").split("\n")[0]
    first = re.sub(r"^job file \S+: ", "", first)
    if spelled is None:  # a special form: its own message, whole
        return first
    assert first.startswith(spelled), (spelled, first)
    return first[len(spelled) :].split(", got ")[0]


def _cli_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    assert main(args) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("command", "f", "d"), ALL, ids=IDS)
def test_every_run_flag_exists_at_its_edges_and_is_documented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, f: Field[Any], d: Flag
) -> None:
    flag = d.flag_of(f.name)
    with pytest.raises(SystemExit):
        main([command, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    if flag is None:
        assert d.absent.startswith("CLI:"), f"{f.name}: an edge without it says why"
    else:
        assert f" {flag} " in shown, flag
        assert " ".join((d.cli_help or d.help).split()) in shown, flag  # its help, whole
    if command != "anonymize":
        assert not d.job, "only anonymize has a job file"
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
        given = {
            "bool": not f.default, "int": 7, "number": "3/4", "text": "zip", "file": "x.html",
            "names": "zip", "numbers": [1, 2], "raw": "0.5",
        }[d.kind]  # fmt: skip
        got = _api_flags(command, {f.name: given})
        assert getattr(got, f.name) not in (None, f.default), f.name


def _api_flags(command: str, kw: dict[str, Any]) -> Any:
    """The flags the API builds from ``kw``, read where the command receives them."""
    if command == "anonymize":
        return AnonymizeCall.from_api("p", "zip", "occ", "r", {"algorithm": "tp", "l": 2, **kw}).flags
    if command == "check":
        return check_flags(dict(kw))
    return api_flags(GROUPS[command], None, kw, command)


@pytest.mark.parametrize(("command", "f", "d"), ALL, ids=IDS)
def test_a_wrong_value_is_refused_with_the_same_message_at_every_edge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, f: Field[Any], d: Flag
) -> None:
    if d.kind == "raw":
        pytest.skip("read against the data: refused there, after the database is opened")
    expected, wrong = EXPECTED[d.kind] if d.parser is None else ("the threshold -1 is outside (0, 1]", -1)
    never = tmp_path / "never.duckdb"
    said: dict[str, str] = {}
    if d.api:
        with pytest.raises(BadInput) as exc:
            _api(command, never, {f.name: wrong})
        said["api"] = _said(exc.value.message, None if d.parser else f.name)
    if d.job:
        job = tmp_path / "job.toml"
        job.write_text(JOB + f"{f.name} = {wrong}\n")
        said["job"] = _said(_cli_error(capsys, ["run", str(job)]), f"anonymize.{f.name}")
    flag = d.flag_of(f.name)
    if d.kind in ("int", "number") and flag is not None:  # the command line gives text: the same number
        err = _cli_error(capsys, [command, str(never), *ARGS[command], flag, str(wrong)])
        said["cli"] = _said(err, None if d.parser else flag)
    assert said, "every flag is refused somewhere"
    for edge, text in said.items():
        assert text.strip().startswith(expected), (edge, text)
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
    call = AnonymizeCall.from_api("p", "zip", "occ", "r", {"algorithm": "tp", "l": 2, "kl": "false"})
    assert call.flags.kl is False
    job = tmp_path / "job.toml"
    job.write_text(JOB + 'kl = "false"\n')
    err = _cli_error(capsys, ["run", str(job)])
    assert "anonymize.kl must be true or false, got 'false' (str)" in err
