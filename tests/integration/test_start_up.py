"""A command imports what it uses (issue 57 item 1, docs/decisions/0023-start-up.md): ``ldiv --help`` and
``ldiv --version`` build the parser of every command without importing the libraries or the layers the
commands run on; a chosen command's parser gets its model and algorithm flags when it parses, the same
flags, help and errors as the parser built whole."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ldiv_db.cli.main import main
from ldiv_db.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("pandas", "numpy", "duckdb", "sqlglot", "jinja2", "matplotlib", "pyarrow")

# runs the command in a fresh interpreter and prints which of HEAVY (and which ldiv_db layers) it loaded
_PROBE = """
import json, sys
from ldiv_db.cli.main import main
try:
    code = main(json.loads(sys.argv[1]))
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def _loaded(args: list[str]) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True, text=True, cwd=ROOT, check=True
    )
    out = json.loads(done.stderr.strip().splitlines()[-1])
    return int(out["code"] or 0), set(out["modules"])


@pytest.mark.parametrize("args", [["--help"], ["--version"]])
def test_help_and_version_import_no_engine_library(args: list[str]) -> None:
    code, modules = _loaded(args)
    assert code == 0
    assert not {m for m in modules if m.split(".")[0] in HEAVY}, sorted(
        m for m in modules if m.split(".")[0] in HEAVY
    )
    # the layers the commands run on (their declarations too: the models' and the algorithms' flags)
    below = ("api", "algorithms", "privacy", "db", "sqlgen", "verify", "pipeline", "reporting", "commands")
    loaded = sorted(m for m in modules if m.split(".")[:2] in [["ldiv_db", b] for b in below])
    assert not loaded, loaded


def test_a_chosen_command_gets_its_model_and_algorithm_flags() -> None:
    """The flags added when the command is chosen parse as the whole parser's do."""
    argv = ["anonymize", "x.duckdb", "--table", "t", "--qi", "a,b", "--sa", "s", "--algorithm", "tp"]
    argv += ["--output", "r", "--l", "3", "--model", "recursive", "--c", "4", "--suppression-limit", "0.05"]
    lazy = vars(build_parser().parse_args(argv))
    tree = build_parser(whole=True)
    whole = vars(tree.parse_args(argv))
    assert lazy == whole
    anonymize = next(a for a in tree._actions if isinstance(a, argparse._SubParsersAction)).choices[
        "anonymize"
    ]
    dest = {o: a.dest for a in anonymize._actions for o in a.option_strings}
    got = {flag: lazy[dest[flag]] for flag in ("--l", "--c", "--model", "--algorithm", "--suppression-limit")}
    assert got == {
        "--l": "3",
        "--c": "4",
        "--model": "recursive",
        "--algorithm": "tp",
        "--suppression-limit": "0.05",
    }


def _help(args: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(args)
    return out.getvalue()


@pytest.mark.parametrize("command", [["check"], ["anonymize"], ["hierarchy", "show"], ["releases"]])
def test_help_of_a_command_is_the_whole_parsers(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    lazy = _help([*command, "--help"])
    parser = build_parser(whole=True)
    for name in command:
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[name]
    assert lazy == parser.format_help()
    if command == ["anonymize"]:
        assert "--algorithm {bsgi," in lazy and "algorithm options" in lazy and "--suppression-limit" in lazy
    if command == ["check"]:
        assert "privacy model" in lazy and "--model" in lazy


def test_an_unknown_algorithm_is_refused_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["anonymize", "x.duckdb", "--table", "t", "--qi", "a", "--sa", "s", "--algorithm", "nope"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --algorithm: invalid choice: 'nope'" in err and "'bsgi'" in err


def test_check_of_a_table_imports_no_algorithm_and_no_chart(tmp_path: Path) -> None:
    """``ldiv check`` on a table runs the check alone: no algorithm, no report charts (matplotlib)."""
    import duckdb

    path = tmp_path / "t.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE t AS SELECT i % 3 AS a, i % 5 AS s FROM range(60) r(i)")
    code, modules = _loaded(
        ["check", str(path), "--table", "t", "--qi", "a", "--sa", "s", "--model", "distinct", "--l", "2"]
    )
    assert code == 0
    assert "matplotlib" not in {m.split(".")[0] for m in modules}
    assert not [m for m in modules if m.startswith(("ldiv_db.algorithms", "ldiv_db.reporting"))]


# a check on DuckDB makes no frame, no array and translates no statement: neither pandas (nor pyarrow,
# which pandas brings), numpy nor sqlglot is imported (decision 0023, Round 7); the models that compute on
# arrays (t-closeness, delta-disclosure, beta-likeness), a frame asked for, --from and the other engines
# load them when they run
_NO_FRAME = ("pandas", "numpy", "pyarrow", "sqlglot", "matplotlib")


@pytest.mark.parametrize(
    "model",
    [
        ["--model", "distinct", "--l", "2"],
        ["--model", "recursive", "--l", "2", "--c", "3"],
        ["--model", "entropy", "--l", "2"],
        ["--model", "frequency", "--l", "2"],
        ["--model", "k-anonymity", "--k", "2"],
        [],
    ],
)
def test_check_imports_no_frame_array_or_translation_library(tmp_path: Path, model: list[str]) -> None:
    import duckdb

    path = tmp_path / "t.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE t AS SELECT i % 3 AS a, i % 4 AS b, 'v' || (i % 5) AS s FROM range(90) r(i)"
        )
    for out in ([], ["--json"]):
        code, modules = _loaded(
            ["check", str(path), "--table", "t", "--qi", "a,b", "--sa", "s", *model, *out]
        )
        assert code in (0, 1)  # 1: the model does not hold
        assert "ldiv_db.verify.check" in modules  # the check ran
        loaded = sorted({m.split(".")[0] for m in modules} & set(_NO_FRAME))
        assert not loaded, loaded


def test_releases_imports_no_frame_array_or_translation_library(tmp_path: Path) -> None:
    """``ldiv releases`` lists what is recorded (a draft here, its verdict's state checked): no frame."""
    import duckdb

    import ldiv_db

    path = tmp_path / "t.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE t AS SELECT i % 3 AS a, i % 4 AS b, 'v' || (i % 5) AS s FROM range(90) r(i)"
        )
    ldiv_db.anonymize(str(path), "t", ["a", "b"], "s", algorithm="mondrian", l=2, output="r", seed=1)
    for out in ([], ["--json"]):
        code, modules = _loaded(["releases", str(path), *out])
        assert code == 0
        assert "ldiv_db.commands.releases" in modules
        loaded = sorted({m.split(".")[0] for m in modules} & set(_NO_FRAME))
        assert not loaded, loaded


def test_suggest_l_imports_no_api_and_no_frame(tmp_path: Path) -> None:
    """``ldiv suggest-l`` calls ``verify/suggest.py`` alone: not the API (every algorithm, the report's
    charts), and none of the libraries it does not use."""
    import duckdb

    path = tmp_path / "t.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE t AS SELECT i % 3 AS a, 'v' || (i % 5) AS s FROM range(90) r(i)")
    code, modules = _loaded(["suggest-l", str(path), "--table", "t", "--sa", "s", "--json"])
    assert code == 0
    assert "ldiv_db.verify.suggest" in modules
    assert not [
        m for m in modules if m.startswith(("ldiv_db.api", "ldiv_db.algorithms", "ldiv_db.reporting"))
    ]
    loaded = sorted({m.split(".")[0] for m in modules} & set(_NO_FRAME))
    assert not loaded, loaded


def test_metrics_imports_no_api_and_no_frame(tmp_path: Path) -> None:
    """``ldiv metrics`` measures with SQL aggregates (``commands/metrics.py``): not the API, no algorithm,
    no report, and no frame or translation library; numpy only for KL's solve, none with ``--no-kl``."""
    import duckdb

    import ldiv_db

    path = tmp_path / "t.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE t AS SELECT i % 30 AS a, i % 4 AS b, 'v' || (i % 5) AS s FROM range(90) r(i)"
        )
    ldiv_db.anonymize(str(path), "t", ["a", "b"], "s", algorithm="mondrian", l=2, output="r", seed=1)
    call = ["metrics", str(path), "--source", "t", "--release", "r", "--qi", "a,b", "--sa", "s"]
    for extra, allowed in (([], {"numpy"}), (["--json"], {"numpy"}), (["--no-kl"], set())):
        code, modules = _loaded([*call, *extra])
        assert code == 0
        assert "ldiv_db.commands.metrics" in modules and "ldiv_db.utility" in modules
        assert not [
            m for m in modules if m.startswith(("ldiv_db.api", "ldiv_db.algorithms", "ldiv_db.reporting"))
        ]
        loaded = sorted({m.split(".")[0] for m in modules} & set(_NO_FRAME))
        assert set(loaded) == allowed, (extra, loaded)


def test_load_and_compose_import_no_api_and_no_frame(tmp_path: Path) -> None:
    """``ldiv load`` (a CSV read by the database) and ``ldiv compose`` (SQL over the releases) call their
    commands alone: not the API, no algorithm, no report, no frame, array or translation library."""
    import ldiv_db

    path, csv = tmp_path / "t.duckdb", tmp_path / "t.csv"
    csv.write_text("a,b,s\n" + "".join(f"{i % 30},{i % 4},v{i % 5}\n" for i in range(90)))
    runs = [(["load", str(path), str(csv), "--table", "t"], "ldiv_db.commands.load")]
    compose = ["compose", str(path), "--release", "r1", "--release", "r2"]
    runs += [(compose, "ldiv_db.pipeline.compose"), ([*compose, "--json"], "ldiv_db.pipeline.compose")]
    for i, (call, ran) in enumerate(runs):
        if i == 1:
            for seed, out in ((1, "r1"), (2, "r2")):
                ldiv_db.anonymize(
                    str(path), "t", ["a", "b"], "s", algorithm="mondrian", l=2, output=out, seed=seed
                )
        code, modules = _loaded(call)
        assert code in (0, 1), call  # compose: 1 when some row is below l
        assert ran in modules
        assert not [
            m for m in modules if m.startswith(("ldiv_db.api", "ldiv_db.algorithms", "ldiv_db.reporting"))
        ]
        loaded = sorted({m.split(".")[0] for m in modules} & set(_NO_FRAME))
        assert not loaded, (call, loaded)


def test_the_algorithm_registry_imports_no_frame_library() -> None:
    """``ldiv anonymize --help`` lists every algorithm's flags, so it imports every algorithm module: they
    read pandas late (``ldiv_db/util/lazy.py``), so the listing loads neither pandas nor pyarrow."""
    code, modules = _loaded(["anonymize", "--help"])
    assert code == 0
    assert "ldiv_db.algorithms.bsgi" in modules and "ldiv_db.algorithms.decomposition" in modules
    loaded = sorted({m.split(".")[0] for m in modules} & {"pandas", "pyarrow"})
    assert not loaded, loaded


def _small_table(path: Path) -> None:
    """A 400-row table: an integer QI, a text QI with a stored hierarchy, an SA of 5 values."""
    import duckdb

    import ldiv_db
    from ldiv_db import taxonomy

    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE t AS SELECT i % 30 AS a, 'b' || (i % 6) AS b, 'v' || (i % 5) AS s FROM range(400) r(i)"
        )
    hierarchy = path.with_suffix(".csv")
    hierarchy.write_text("".join(f"b{i};g{i % 2};*\n" for i in range(6)))
    with ldiv_db.Database.open(str(path)) as db:
        taxonomy.import_hierarchy(db, "t", "b", hierarchy)


@pytest.mark.parametrize("algorithm", ["mondrian", "tp+", "tp", "hilbert"])
def test_anonymize_imports_no_frame_library(tmp_path: Path, algorithm: str) -> None:
    """A run of ``ldiv anonymize`` whose algorithm works on arrays loads numpy, not pandas or pyarrow: the
    metrics' domain and KL's points come over from the second reader as numpy arrays, and the classes,
    labels, residue groups and the step log go into DuckDB as arrays (``Database.insert_columns``)."""
    path = tmp_path / "t.duckdb"
    _small_table(path)
    call = ["anonymize", str(path), "--table", "t", "--qi", "a,b", "--sa", "s", "--algorithm", algorithm]
    code, modules = _loaded([*call, "--l", "2", "--output", "r", "--seed", "1", "--quiet"])
    assert code == 0
    assert "ldiv_db.utility.source_side" in modules and "ldiv_db.utility.kl" in modules
    loaded = sorted({m.split(".")[0] for m in modules} & {"pandas", "pyarrow"})
    assert not loaded, loaded
