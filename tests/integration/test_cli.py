"""The ldiv command: exit codes (0 satisfied, 1 violated, 2 bad input), JSON keys, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.hostile import create_sql
from ldiv_db.cli.main import main
from ldiv_db.db import Database


@pytest.fixture
def dbfile(tmp_path: Path) -> Path:
    path = tmp_path / "cli.duckdb"
    db = Database.open(path)
    for stmt in create_sql():
        db.con.execute(stmt)
    db.close()
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_json_and_exit_codes(dbfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["check", str(dbfile), "--table", "select", "--qi", "it's", "--sa", "ünï"]
    code, out, _ = run(capsys, *base, "--json")
    d = json.loads(out)
    assert code == 0
    for key in ("classes", "rows", "k", "risk", "distinct_l", "entropy_l", "frequency_l", "recursive"):
        assert key in d
    code, out, _ = run(capsys, *base, "--model", "distinct", "--l", "3", "--json")
    d = json.loads(out)
    assert code == 0 and d["satisfied"] is True and d["model"] == "distinct"
    code, out, _ = run(capsys, *base, "--model", "unique-distinct", "--l", "2", "--json")
    d = json.loads(out)
    assert code == 1 and d["satisfied"] is False
    assert d["violating_classes"] == 2 and d["violating_rows"] == 9 and len(d["worst"]) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--qi", "nope"], "unknown column 'nope'"),
        (["--qi", "it's", "--model", "recursive", "--l", "2"], "needs c"),
        (["--qi", "it's", "--model", "bogus"], "unknown privacy model"),
    ],
)
def test_check_bad_input_exit_2(
    dbfile: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run(capsys, "check", str(dbfile), "--table", "select", "--sa", "ünï", *args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_load_suggest_anonymize_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "people.csv"
    csv.write_text(
        "zip;sex;disease\n" + "\n".join(f"1007{i % 4};{'FM'[i % 2]};{'abcd'[i % 4]}" for i in range(40))
    )
    h = tmp_path / "zip.csv"
    h.write_text("\n".join(f"1007{i};1007*;*" for i in range(4)))
    db = str(tmp_path / "p.duckdb")
    assert run(capsys, "load", db, str(csv), "--table", "people", "--sep", ";")[0] == 0
    code, out, err = run(capsys, "load", db, str(csv), "--table", "people")
    assert code == 2 and "already exists" in err
    assert run(capsys, "hierarchy", "import", db, "--table", "people", "--column", "zip", str(h))[0] == 0
    code, out, _ = run(capsys, "suggest-l", db, "--table", "people", "--sa", "disease", "--json")
    sugg = {s["model"]: s["l"] for s in json.loads(out)["suggestions"]}
    assert sugg["distinct"] == 4 and sugg["frequency"] == 4
    job = tmp_path / "job.toml"
    job.write_text(
        f'database = "{Path(db).name}"\n[source]\ntable = "people"\n'
        '[anonymize]\nqi = ["zip", "sex"]\nsa = "disease"\nalgorithm = "full-domain"\nl = 2\n'
        'output = "people_rel"\n[anonymize.options]\nlevels = { zip = 1 }\n'
    )
    code, out, err = run(capsys, "run", str(job), "--json")
    assert code == 0, err
    first = json.loads(out)["release"]
    code, out, err = run(capsys, "run", str(job), "--json")  # re-running replaces the release
    second = json.loads(out)["release"]
    assert code == 0 and second["release_id"] == first["release_id"] + 1
    code, out, _ = run(capsys, "releases", db, "--json")
    rel = json.loads(out)["releases"]
    assert rel[1]["superseded_by"] == rel[0]["release_id"]


def test_help_runs_as_a_program() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "ldiv_db.cli.main", "--help"], capture_output=True, text=True, check=True
    )
    assert "anonymize" in out.stdout and "check" in out.stdout


@pytest.mark.parametrize(
    "command", ["check", "anonymize", "load", "metrics", "suggest-l", "releases", "report"]
)
def test_help_names_every_engine_for_db(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """DB takes a DuckDB file, a PostgreSQL URL or a Spark session: each command's help says so (it said
    "DuckDB database file" after the other engines came), and --attach says it is for DuckDB files."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps the help text
    assert "a DuckDB file" in out and "a PostgreSQL URL (postgresql://" in out and "spark://local[2]" in out
    assert "attach another DuckDB file read-only (DuckDB only)" in out


def test_attack_similarity_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    papers = Path(__file__).resolve().parents[2] / "fixtures" / "papers"
    db = str(tmp_path / "a.duckdb")
    assert run(capsys, "load", db, str(papers / "lalpha_table5.csv"), "--table", "t5", "--sep", ";")[0] == 0
    code, out, _ = run(
        capsys,
        "attack",
        "similarity",
        db,
        "--table",
        "t5",
        "--qi",
        "Zipcode,Age",
        "--sa",
        "Disease",
        "--categories",
        str(papers / "lalpha_categories.csv"),
        "--json",
    )
    d = json.loads(out)
    assert code == 0
    assert (d["single_category_groups"], d["single_category_rows"]) == (2, 8)
