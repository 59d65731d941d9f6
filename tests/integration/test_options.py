"""Options declared once (ldiv_db/core/options.py): every bad value, unknown key or unknown name is a clear
error at the command line (exit 2, `error:` with the problem and a `hint:`), never an internal error,
and a refused anonymize run writes nothing. The CLI, the job file and the API accept the same options."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from ldiv_db import taxonomy
from ldiv_db.algorithms import REGISTRY
from ldiv_db.cli.main import main
from ldiv_db.commands.job import run_job
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

OCC = ["Prof-specialty", "Sales", "Craft-repair", "Adm-clerical"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def _options_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 rows (zip, sex, age, occ) with hierarchies for zip and sex and stored categories for occ, and
    the hierarchy files beside it: built once per test process."""
    tmp_path = tmp_path_factory.mktemp("options")
    path = tmp_path / "opt.duckdb"
    db = Database.open(path)
    values = ", ".join(
        f"({1000 + i % 4}, '{'MF'[i % 2]}', {20 + i}, '{OCC[(i // 2) % 4]}')" for i in range(40)
    )
    db.con.execute("CREATE TABLE p (zip INTEGER, sex VARCHAR, age INTEGER, occ VARCHAR)")
    db.con.execute(f"INSERT INTO p VALUES {values}")
    (tmp_path / "zip.csv").write_text("".join(f"{1000 + i};10**;*\n" for i in range(4)))
    (tmp_path / "sex.csv").write_text("M;*\nF;*\n")
    (tmp_path / "cat.csv").write_text("".join(f"{v};{i + 1}\n" for i, v in enumerate(OCC)))
    taxonomy.import_hierarchy(db, "p", "zip", tmp_path / "zip.csv")
    taxonomy.import_hierarchy(db, "p", "sex", tmp_path / "sex.csv")
    taxonomy.import_categories(db, "p", "occ", tmp_path / "cat.csv")
    db.close()
    return tmp_path


@pytest.fixture
def dbfile(_options_world: Path, tmp_path: Path) -> Path:
    """A fresh copy of the options world (its database file and hierarchy files) in the test's folder."""
    for f in _options_world.iterdir():
        shutil.copyfile(f, tmp_path / f.name)
    return tmp_path / "opt.duckdb"


def _state(path: Path) -> tuple[list[str], int, int]:
    db = Database.open(path)
    try:
        tables = sorted(str(r[0]) for r in db.raw_rows("SELECT table_name FROM information_schema.tables"))
        releases = int(db.raw_rows("SELECT count(*) FROM ldiv.release")[0][0])
        runs = int(db.raw_rows("SELECT count(*) FROM ldiv.run")[0][0])
        return tables, releases, runs
    finally:
        db.close()


def refused(capsys: pytest.CaptureFixture[str], args: list[str], *problem: str) -> str:
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert err.startswith("error: ") and "\n  hint: " in err, err
    for text in problem:
        assert text in err, (text, err)
    assert "internal error" not in err and "Traceback" not in err
    return err


ANON = ["--qi", "zip,sex", "--sa", "occ", "--output", "rel", "--quiet"]


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        # names that do not exist are errors listing the real ones
        (
            ["--algorithm", "lplus", "--l", "2", "--thresholds", "prof-specialty=0"],
            ["'prof-specialty', which is not a value of the SA 'occ'", "did you mean 'Prof-specialty'?"],
        ),
        (
            ["--algorithm", "lplus", "--l", "2", "--thresholds", "Sales=1.5"],
            ["--thresholds of 'Sales'", "[0, 1]"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "zip=1,zip=0"],
            ["--levels names 'zip' twice"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "zip=1,ZIP=0"],
            ["--levels names 'ZIP' twice"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "age=1"],
            ["--levels names 'age', which is not a QI", "the QIs are: 'zip', 'sex'"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "zip=x"],
            ["--levels of 'zip' must be an integer"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "zip=9"],
            ["level 9 of 'zip' is outside 0..2"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "zip=1", "--option", "bogus=1"],
            ["unknown option '--bogus' for full-domain options", "--levels, --suppression-limit"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "zip=1", "--window", "3"],
            ["unknown option '--window' for full-domain options"],
        ),
        (
            ["--algorithm", "bsgi", "--l", "2", "--window", "3", "--option", "window=4"],
            ["option 'window' is given twice"],
        ),
        (
            ["--algorithm", "bsgi", "--l", "2", "--weights", "zip=1e308,sex=1e308"],
            ["must be a number in [0, 10^6]"],
        ),
        (
            ["--algorithm", "bsgi", "--l", "2", "--weights", "age=1"],
            ["--weights names 'age', which is not a QI"],
        ),
        (["--algorithm", "bsgi", "--l", "2", "--weights", "1,2,3"], ["3 weights for 2 QIs"]),
        (["--algorithm", "bsgi", "--l", "2", "--window", "0"], ["--window must be an integer in [1, 10^6]"]),
        (["--algorithm", "bsgi", "--l", "2", "--window", "1e3"], ["--window must be an integer"]),
        (["--algorithm", "bsgi", "--l", "2", "--exact", "maybe"], ["--exact must be true or false"]),
        (["--algorithm", "bsgi", "--l", "2", "--batch", "-5"], ["--batch must be an integer in [1, 10^6]"]),
        (
            ["--algorithm", "mondrian", "--l", "2", "--mondrian-form", "best"],
            ["unknown --mondrian-form 'best'", "must be distinct or frequency"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "zip=1", "--suppression-limit", "2"],
            ["[0, 1]"],
        ),
        (
            ["--algorithm", "full-domain", "--l", "2", "--levels", "zip=1", "--suppression-limit", "nan"],
            ["number"],
        ),
        (
            ["--algorithm", "lplus", "--l", "2", "--time-limit", "0"],
            ["--time-limit must be a number in (0, 10^7]"],
        ),
        (["--algorithm", "lplus", "--l", "2", "--time-limit", "inf"], ["--time-limit must be a number"]),
        (["--algorithm", "lplus", "--l", "2", "--top-h", "0"], ["--top-h must be an integer in [1, 10^6]"]),
        (
            ["--algorithm", "lplus", "--l", "2", "--warm-start", "perhaps"],
            ["--warm-start must be true or false"],
        ),
        (["--algorithm", "lplus", "--l", "2", "--metric", "LX"], ["--metric must be one of lm, dm, cm"]),
        (
            ["--algorithm", "decomposition", "--l", "2", "--starvation-threshold", "-2"],
            ["--starvation-threshold must be an integer in [-1, 10^6]"],
        ),
        (["--algorithm", "full-domain", "--levels", "zip=1", "--l", "2.7"], ["--l must be an integer"]),
        (
            ["--algorithm", "full-domain", "--levels", "zip=1", "--l", "1"],
            ["--l must be an integer of at least 2"],
        ),
        (["--algorithm", "full-domain", "--levels", "zip=1", "--l", "2", "--seed", "-1"], ["--seed must be"]),
        (["--algorithm", "full-domain", "--levels", "zip=1", "--l", "2", "--seed", "x"], ["--seed must be"]),
        # the model options: every number has a range, NaN and infinities included
        (["--algorithm", "topdown", "--l", "2", "--alpha", "-1"], ["--alpha must be a number in [0, 10^9]"]),
        (
            ["--algorithm", "topdown", "--l", "2", "--alpha", "1e999"],
            ["--alpha must be a number in [0, 10^9]"],
        ),
        (["--algorithm", "topdown", "--l", "2", "--alpha", "NaN"], ["--alpha must be a number"]),
        (
            ["--algorithm", "topdown", "--l", "2", "--alpha", "1", "--category-weights", "x=1"],
            ["--category-weights names 'x', which is not a category rank"],
        ),
        (
            [
                "--algorithm",
                "topdown",
                "--l",
                "2",
                "--alpha",
                "1",
                "--category-weights",
                "1=0,2=1,3=1,4=1,7=1",
            ],
            [
                "--category-weights names '7', which is not a category rank",
                "the ranks are: '1', '2', '3', '4'",
            ],
        ),
        (
            [
                "--algorithm",
                "topdown",
                "--l",
                "2",
                "--alpha",
                "1",
                "--category-weights",
                "sensitivity",
                "--beta",
                "0.5",
            ],
            ["--beta must be a number in [1, 16]"],
        ),
        (
            ["--algorithm", "topdown", "--l", "2", "--alpha", "1", "--entropy-over", "rows"],
            ["--entropy-over must be categories or values"],
        ),
        (
            [
                "--algorithm",
                "full-domain",
                "--levels",
                "zip=1",
                "--model",
                "recursive",
                "--l",
                "2",
                "--c",
                "0",
            ],
            ["--c"],
        ),
        (
            ["--algorithm", "full-domain", "--levels", "zip=1", "--model", "k-anonymity", "--k", "0"],
            ["--k must be"],
        ),
        (
            [
                "--algorithm",
                "full-domain",
                "--levels",
                "zip=1",
                "--l",
                "2",
                "--attach",
                "a=x",
                "--attach",
                "A=y",
            ],
            ["twice"],
        ),
        (
            ["--algorithm", "bsgi", "--l", "2", "--class-column", ""],
            ["the class column '' is not a column name"],
        ),
        (["--algorithm", "bsgi", "--l", "2", "--class-column", " "], ["' '"]),
    ],
)
def test_anonymize_refuses_and_writes_nothing(
    dbfile: Path, capsys: pytest.CaptureFixture[str], args: list[str], problem: list[str]
) -> None:
    before = _state(dbfile)
    refused(capsys, ["anonymize", str(dbfile), "--table", "p", *ANON, *args], *problem)
    assert _state(dbfile) == before


def test_valid_options_still_run(dbfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same flags with good values work (the text forms of every kind: flag, int, choice, pairs)."""
    base = ["anonymize", str(dbfile), "--table", "p", *ANON, "--replace"]
    assert main([*base, "--algorithm", "bsgi", "--l", "2", "--exact", "--weights", "sex=1/2"]) == 0
    assert main([*base, "--algorithm", "bsgi", "--l", "2", "--option", "window=4", "--exact", "off"]) == 0
    assert main([*base, "--algorithm", "lplus", "--l", "2", "--thresholds", "Prof-specialty=1/2"]) == 0
    assert main([*base, "--algorithm", "full-domain", "--l", "2", "--levels", "ZIP=1", "--seed", "7"]) == 0
    capsys.readouterr()
    # check may read a release that lost every row of a value: a threshold for an absent value is
    # accepted there (only another case of a real value is refused); anonymize reads the source: refused
    chk = ["check", str(dbfile), "--table", "p", "--qi", "zip", "--sa", "occ", "--model", "lplus", "--l", "2"]
    assert main([*chk, "--thresholds", "Retired=1/2"]) in (0, 1)
    refused(capsys, [*base, "--algorithm", "lplus", "--l", "2", "--thresholds", "Retired=1/2"], "'Retired'")


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (
            ["check", "--qi", "zip", "--sa", "occ", "--model", "distinct", "--l", "auto"],
            ["'auto' is for anonymize"],
        ),
        (
            ["check", "--qi", "zip", "--sa", "occ", "--model", "distinct", "--l", "2", "--worst", "-1"],
            ["--worst"],
        ),
        (
            ["check", "--qi", "zip", "--sa", "occ", "--model", "distinct", "--l", "2.5"],
            ["--l must be an integer"],
        ),
        (
            ["check", "--qi", "zip", "--sa", "occ", "--model", "distinct", "--l", ""],
            ["--l must be an integer"],
        ),
        (
            [
                "check",
                "--qi",
                "zip",
                "--sa",
                "occ",
                "--model",
                "distinct-alpha",
                "--l",
                "2",
                "--alpha",
                "1e999",
            ],
            ["--alpha must be a number in [0, 10^9]"],
        ),
        (
            ["check", "--qi", "zip", "--sa", "occ", "--model", "recursive", "--l", "2", "--c", "1e999"],
            ["--c must be a number in (0, 10^6]"],
        ),
        (
            ["check", "--qi", "zip", "--sa", "occ", "--model", "lplus", "--thresholds", "sales=0.5"],
            ["did you mean 'Sales'?"],
        ),
        (
            ["hierarchy", "build", "--column", "age", "--intervals", "5,x"],
            ["--intervals entry must be an integer"],
        ),
        (
            ["hierarchy", "build", "--column", "age", "--intervals", "5,-10"],
            ["--intervals entry must be an integer"],
        ),
        (["hierarchy", "show", "--beta", "0"], ["--beta must be a number in [1, 16]"]),
        (["hierarchy", "show", "--category-weights", "x=1"], ["--category-weights names 'x'"]),
        (
            ["metrics", "--source", "p", "--release", "p", "--qi", "zip", "--sa", "occ", "--l", "0"],
            ["--l must be"],
        ),
        (
            [
                "check",
                "--qi",
                "zip",
                "--sa",
                "occ",
                "--model",
                "lplus",
                "--thresholds",
                "Sales=0.5,Sales=0.4",
            ],
            ["--thresholds names 'Sales' twice"],
        ),
        (
            [
                "check",
                "--qi",
                "zip",
                "--sa",
                "occ",
                "--model",
                "distinct-alpha",
                "--l",
                "2",
                "--alpha",
                "1",
                "--categories",
                "{dir}",
            ],
            ["is a directory"],
        ),
        (["hierarchy", "import", "--column", "zip", "{dir}"], ["is a directory"]),
        (["hierarchy", "import", "--column", "zip", "{dir}/zip.csv", "--sep", ""], ["unusable separator"]),
    ],
)
def test_other_commands_refuse_bad_values(
    dbfile: Path, capsys: pytest.CaptureFixture[str], args: list[str], problem: list[str]
) -> None:
    command = args[:2] if args[0] == "hierarchy" else args[:1]
    rest = args[len(command) :]
    table = [] if command[0] == "metrics" else ["--table", "p"]
    rest = [a.replace("{dir}", str(dbfile.parent)) for a in rest]
    refused(capsys, [*command, str(dbfile), *table, *rest], *problem)


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["risk", "--qi", "zip,sex", "--sa", "occ"], "--sa"),  # was read as --sampling-fraction occ
        (
            ["check", "--qi", "zip,sex", "--sa", "occ", "--model", "distinct", "--l", "2", "--null-as"],
            "--null-as",
        ),
    ],
)
def test_a_flag_is_taken_only_as_spelled(
    dbfile: Path, capsys: pytest.CaptureFixture[str], args: list[str], flag: str
) -> None:
    """argparse takes a flag's prefix for the flag: `ldiv risk --sa occ` was refused as a bad
    --sampling-fraction, and a prefix typo ran as whichever flag it begins."""
    with pytest.raises(SystemExit) as refused:
        main([args[0], str(dbfile), "--table", "p", *args[1:]])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and f"unrecognized arguments: {flag}" in err and "sampling" not in err, err


JOB = """database = "{db}"

[source]
table = "p"

[anonymize]
qi = ["zip", "sex"]
sa = "occ"
algorithm = "full-domain"
output = "rel"
l = 2
{extra}

[anonymize.options]
levels = {{ zip = 1 }}
{options}
"""


@pytest.mark.parametrize(
    ("extra", "options", "problem"),
    [
        ("", "", []),  # the valid job, for contrast
        ("l = 2.7", "", ["anonymize.l must be an integer >= 2", "2.7 (float)"]),
        ('qi = 5\nsa = "occ"', "", ["anonymize.qi must be a column name or a list of names, got 5 (int)"]),
        (
            "",
            "replace = false",
            ["unknown option 'options.replace' for full-domain options", "options.levels"],
        ),
        ('kl = "false"', "", ["anonymize.kl must be true or false, got 'false' (str)"]),
        ('null_as_value = "false"', "", ["anonymize.null_as_value must be true or false"]),
        ("seed = 1.5", "", ["anonymize.seed must be an integer"]),
        ('modle = "distinct"', "", ["unknown key 'modle' in [anonymize]", "did you mean 'model'?"]),
        ("", 'suppression_limit = "lots"', ["options.suppression_limit must be a number"]),
        ("", "suppression_limit = nan", ["options.suppression_limit must be a number"]),
        ("", "levels = 3", ["options.levels"]),
        ("[anonymize.model_options]\nalpha = -1", "", ["anonymize.alpha must be a number in [0, 10^9]"]),
        ("[anonymize.model_options]\nsensitivity = 1", "", ["anonymize.sensitivity must be true or false"]),
        (
            "[anonymize.model_options]\ncolour = 1",
            "",
            ["unknown option 'anonymize.colour' for model options"],
        ),
    ],
)
def test_job_file_values_are_typed(
    dbfile: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: str,
    options: str,
    problem: list[str],
) -> None:
    if extra.startswith("[anonymize.model_options]"):  # a sub-table must follow the [anonymize] keys
        text = JOB.format(db=dbfile, extra="", options=options) + "\n" + extra + "\n"
    else:
        text = JOB.format(db=dbfile, extra=extra, options=options)
    if extra.startswith("qi = 5"):
        text = text.replace('qi = ["zip", "sex"]\nsa = "occ"\n', "")
    if extra.startswith("l = "):
        text = text.replace("l = 2\n", "", 1)
    if options.startswith("levels = "):
        text = text.replace("levels = { zip = 1 }\n", "")
    job = tmp_path / "job.toml"
    job.write_text(text)
    before = _state(dbfile)
    if not problem:
        assert main(["run", str(job)]) == 0
        capsys.readouterr()
        return
    refused(capsys, ["run", str(job)], "job file", *problem)
    assert _state(dbfile) == before


def test_job_file_unknown_sections_and_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = tmp_path / "job.toml"
    job.write_text('databse = "x.duckdb"\n[source]\ntable = "p"\n[anonymize]\nqi = "a"\n')
    refused(capsys, ["run", str(job)], "unknown key 'databse' in the job file", "did you mean 'database'?")
    job.write_text('database = "x.duckdb"\n[source]\ntable = "p"\nsepp = ";"\n[anonymize]\nqi = "a"\n')
    refused(capsys, ["run", str(job)], "unknown key 'sepp' in [source]")
    assert not (tmp_path / "x.duckdb").exists()


# Values for the declared options that have no default (the others are given their default).
EXAMPLES: dict[str, Any] = {
    "levels": {"zip": 1},
    "weights": [1, 1],
    "individual_column": "zip",
    "key": "zip",
    "mondrian_form": "distinct",
    "time_limit": 5,
}


def _cli_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, Fraction):  # a TOML number; a fraction, which TOML cannot write, as text
        return str(value.numerator) if value.denominator == 1 else f'"{value}"'
    return str(value)


def _listed(hint: str) -> set[str]:
    names = hint.split("options are: ", 1)[1].strip().split(", ")
    return {re.sub(r"^(--|options\.)", "", n).replace("-", "_") for n in names}


@pytest.mark.parametrize("algorithm", sorted(REGISTRY))
def test_cli_job_and_api_accept_the_same_options(
    dbfile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], algorithm: str
) -> None:
    """Every declared option is accepted by all three (given together with one unknown key, only the
    unknown key is refused), and the three list exactly the declared set as the real options."""
    declared = {
        o.name: (EXAMPLES[o.name] if o.default is None else o.default) for o in REGISTRY[algorithm].options
    }
    # the command line: the generated flags
    args = ["anonymize", str(dbfile), "--table", "p", *ANON, "--algorithm", algorithm, "--l", "2"]
    for name, value in declared.items():
        args += ["--" + name.replace("_", "-"), _cli_text(value)]
    err = refused(capsys, [*args, "--option", "zz_unknown=1"], "unknown option '--zz-unknown'")
    cli = _listed(err.split("hint: ", 1)[1]) if declared else set()
    # the job file
    opts = "".join(f"{name} = {_toml(value)}\n" for name, value in declared.items()) + "zz_unknown = 1\n"
    job = tmp_path / "job.toml"
    job.write_text(
        f'database = "{dbfile}"\n[source]\ntable = "p"\n[anonymize]\nqi = ["zip", "sex"]\nsa = "occ"\n'
        f'algorithm = "{algorithm}"\noutput = "rel"\nl = 2\n[anonymize.options]\n{opts}'
    )
    err = refused(capsys, ["run", str(job)], "unknown option 'options.zz_unknown'")
    job_set = _listed(err.split("hint: ", 1)[1]) if declared else set()
    # the API
    with pytest.raises(BadInput, match="unknown option '--zz-unknown'") as info:
        ldiv_db.anonymize(str(dbfile), "p", ["zip", "sex"], "occ", algorithm=algorithm, output="rel", l=2,
                          **declared, zz_unknown=1)  # fmt: skip
    api = _listed(str(info.value.hint)) if declared else set()
    assert cli == job_set == api == set(declared)


def test_help_shows_every_option_with_type_range_and_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["anonymize", "--help"])
    assert info.value.code == 0
    text = re.sub(r"\s+", "", capsys.readouterr().out)
    for cls in REGISTRY.values():
        for opt in cls.options:
            assert re.sub(r"\s+", "", opt.help_text()) in text, opt.name
            assert opt.flag in text
    assert "--alpha" in text and "[0,10^9]" in text and "(0,10^6]" in text  # model options too


def _ldiv(*args: str, **kw: Any) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "ldiv_db.cli.main", *args], env=env, **kw)


def test_broken_pipe_is_quiet(dbfile: Path) -> None:
    """`ldiv ... --json | head -c 1`: the reader is gone before the output is written; no traceback."""
    p = _ldiv("check", str(dbfile), "--table", "p", "--qi", "zip", "--sa", "occ", "--json",
              stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0, err
    assert "Traceback" not in err and "Error" not in err


def test_ctrl_c_during_start_up_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The heavy imports happen inside main (building the parser imports the algorithms), so Ctrl-C
    there is one line and exit 130; `import ldiv_db.cli.main` itself loads no database driver or numpy."""
    import ldiv_db.cli.main as cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["releases", "x.duckdb"]) == 130
    out, err = capsys.readouterr()
    assert err == "interrupted: nothing was written\n" and out == ""
    probe = "import sys, ldiv_db.cli.main; print(sorted({'duckdb', 'numpy', 'pandas', 'ldiv_db.api'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


def test_ctrl_c_wrapped_by_an_import_is_still_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C inside a class body's import comes out as a RuntimeError (``__set_name__`` wraps it):
    after the signal handler noted the interrupt it is still one line and exit 130; without that note
    the same error is not swallowed."""
    import ldiv_db.cli.main as cli
    from ldiv_db.errors import note_interrupt

    def wrapped() -> None:
        note_interrupt()
        raise RuntimeError("Error calling __set_name__ on 'Field' instance 'scratch' in 'Space'")

    monkeypatch.setattr(cli, "build_parser", wrapped)
    assert cli.main(["releases", "x.duckdb"]) == 130
    out, err = capsys.readouterr()
    assert err == "interrupted: nothing was written\n" and out == ""

    def broken() -> None:
        raise RuntimeError("a real start-up failure")

    monkeypatch.setattr(cli, "build_parser", broken)
    with pytest.raises(RuntimeError, match="a real start-up failure"):
        cli.main(["releases", "x.duckdb"])


def test_api_and_job_share_the_validator(dbfile: Path, tmp_path: Path) -> None:
    """The API refuses what the job file refuses (same declaration), and takes the same typed values."""
    with pytest.raises(BadInput, match=r"--window must be an integer in \[1, 10\^6\]"):
        ldiv_db.anonymize(str(dbfile), "p", "zip,sex", "occ", algorithm="bsgi", output="r", l=2, window=0)
    with pytest.raises(BadInput, match="must be true or false"):
        ldiv_db.anonymize(str(dbfile), "p", "zip,sex", "occ", algorithm="bsgi", output="r", l=2, kl="maybe")
    with pytest.raises(BadInput, match="unknown option '--colour' for model options"):
        ldiv_db.check(str(dbfile), "p", "zip", "occ", model="distinct", l=2, colour=1)
    with pytest.raises(BadInput, match="'auto' is for anonymize"):
        ldiv_db.check(str(dbfile), "p", "zip", "occ", model="distinct", l="auto")
    job = tmp_path / "job.toml"
    job.write_text(JOB.format(db=dbfile, extra="", options="suppression_limit = 0.05"))
    assert run_job(job).release is not None


@pytest.mark.parametrize(
    "args",
    [
        ["check", "{db}", "--table", "p", "--qi", "a", "--sa", "b", "--model", "distinct", "--l", "1"],
        ["check", "{db}", "--table", "p", "--qi", "a", "--sa", "b", "--worst", "x"],
        ["hierarchy", "build", "{db}", "--table", "p", "--column", "a", "--intervals", "5,x"],
        ["hierarchy", "show", "{db}", "--table", "p", "--beta", "99"],
        ["metrics", "{db}", "--source", "p", "--release", "r", "--qi", "a", "--sa", "b", "--l", "x"],
        ["anonymize", "{db}", "--table", "p", "--qi", "a", "--sa", "b", "--algorithm", "tp", "--l", "2",
         "--output", "o", "--seed", "-3"],
        ["anonymize", "{db}", "--table", "p", "--qi", "a", "--sa", "b", "--algorithm", "tp", "--l", "2",
         "--output", "o", "--attach", "a=x", "--attach", "a=y"],
    ],
)  # fmt: skip
def test_bad_values_are_refused_before_any_database_is_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    path = tmp_path / "never.duckdb"
    refused(capsys, [a.replace("{db}", str(path)) for a in args])
    assert not path.exists()


def test_model_options_without_a_model_are_refused(dbfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["check", str(dbfile), "--table", "p", "--qi", "zip", "--sa", "occ"]
    refused(capsys, [*args, "--l", "3", "--alpha", "1"], "l, alpha given without a model")
    assert main(args) == 0  # the statistics alone
    capsys.readouterr()
