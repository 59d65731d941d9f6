"""Reads write nothing (issue 11): every read command leaves the database file byte-identical, opens it
read-only (works on a read-only file and beside another process's read-only connection), needs no
migration, creates nothing for a missing path, and reads a file without the ldiv schema or with an
older one. Write commands still create and migrate."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ldiv_db
from fixtures.papers import PAPER_TABLES, read_table
from ldiv_db import api
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.errors import BadInput
from ldiv_db.schema.migrate import BOOKKEEPING, shipped_migrations
from ldiv_db.taxonomy import import_hierarchy
from tests.integration.frames import make_table

PAPER = PAPER_TABLES["decomposition_table1"]
QI = ",".join(PAPER.qi)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def categories_file(folder: Path) -> Path:
    values = sorted(read_table(PAPER)["Occupation"].unique())
    f = folder / "occupation_categories.csv"
    f.write_text("".join(f"{v};{1 + i % 2}\n" for i, v in enumerate(values)), encoding="utf-8")
    return f


def plain_file(path: Path) -> Path:
    """A DuckDB file that ldiv_db never wrote to: one table, no ldiv schema."""
    db = Database.open(path, migrate=False)
    make_table(db, "t", read_table(PAPER).sort_values("row_id"))
    make_table(db, "m", read_table(PAPER).sort_values("row_id"))
    db.close()
    return path


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file with the paper table, its hierarchy, a Mondrian release ``m`` and a Decomposition+ stream."""
    folder = tmp_path_factory.mktemp("released")
    path = folder / "released.duckdb"
    db = Database.open(path)
    make_table(db, "t", read_table(PAPER).sort_values("row_id"))
    for col, hier in PAPER.hierarchies.items():
        import_hierarchy(db, "t", col, hier)
    ldiv_db.anonymize(db, "t", ["Gender", "Zip"], "Occupation", algorithm="mondrian", l=2, output="m")
    ldiv_db.anonymize(
        db, "t", list(PAPER.qi), ["Occupation", "Salary"], algorithm="decomposition", l=[4, 4], output="rel"
    )
    db.close()
    categories_file(folder)
    return path


def read_commands(path: Path) -> list[list[str]]:
    db, cats = str(path), str(path.parent / "occupation_categories.csv")
    return [
        ["check", db, "--table", "t", "--qi", QI, "--sa", "Occupation", "--model", "distinct", "--l", "2"],
        ["check", db, "--table", "m", "--qi", "Gender,Zip", "--sa", "Occupation", "--json"],
        ["metrics", db, "--source", "t", "--release", "m", "--qi", "Gender,Zip", "--sa", "Occupation"],
        ["suggest-l", db, "--table", "t", "--sa", "Occupation"],
        ["risk", db, "--table", "t", "--qi", QI, "--sampling-fraction", "0.1"],
        ["releases", db],
        ["release", "history", db, "--release", "rel"],
        ["hierarchy", "show", db, "--table", "t"],
        [
            "attack",
            "similarity",
            db,
            "--table",
            "m",
            "--qi",
            "Gender,Zip",
            "--sa",
            "Occupation",
            "--categories",
            cats,
        ],
        ["doctor", db],
    ]


def run_all_reads(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, tuple[int, str, str]]:
    out = {}
    for argv in read_commands(path):
        code = main(argv)
        o, e = capsys.readouterr()
        assert "internal error" not in e and "Traceback" not in e, (argv, e)
        out[" ".join(argv[:2])] = (code, o, e)
    return out


def test_reads_of_a_plain_file_create_no_ldiv_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = plain_file(tmp_path / "plain.duckdb")
    categories_file(tmp_path)
    before = sha256(path)
    results = run_all_reads(path, capsys)
    assert sha256(path) == before
    assert results["check " + str(path)][0] == 0
    code, out, _ = results["releases " + str(path)]
    assert code == 0 and "no releases recorded" in out
    code, _, err = results["release history"]
    assert code == 2 and "no release stream main.rel" in err
    code, out, _ = results["hierarchy show"]
    assert code == 0 and "no hierarchies stored for main.t" in out
    code, out, _ = results["doctor " + str(path)]
    assert code == 0 and "no ldiv schema" in out
    assert results["attack similarity"][0] == 0 and results["metrics " + str(path)][0] == 0
    assert results["risk " + str(path)][0] == 0
    db = Database.open(path, mode="read", migrate=False)
    schemas = db.raw_rows("SELECT schema_name FROM duckdb_schemas() WHERE database_name = current_database()")
    db.close()
    assert "ldiv" not in {s for (s,) in schemas}


def test_a_missing_table_is_an_error_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = plain_file(tmp_path / "plain.duckdb")
    before = sha256(path)
    code = main(["check", str(path), "--table", "nope", "--qi", "a", "--sa", "b"])
    assert code == 2 and "unknown table 'nope'" in capsys.readouterr().err
    assert sha256(path) == before


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--table", "t", "--qi", "a", "--sa", "b"],
        ["releases"],
        ["suggest-l", "--table", "t", "--sa", "b"],
        ["risk", "--table", "t", "--qi", "a"],
        ["doctor"],
    ],
)
def test_a_missing_path_is_an_error_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    path = tmp_path / "nothing.duckdb"
    sub = 2 if argv[0] in ("release", "hierarchy", "attack") else 1
    code = main([*argv[:sub], str(path), *argv[sub:]])
    err = capsys.readouterr().err
    assert code == 2 and f"database file {path} does not exist" in err
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_api_reads_create_nothing(tmp_path: Path) -> None:
    path = tmp_path / "nothing.duckdb"
    with pytest.raises(BadInput, match="does not exist"):
        ldiv_db.check(str(path), "t", ["a"], "b")
    with pytest.raises(BadInput, match="does not exist"):
        api.releases(str(path))
    with pytest.raises(BadInput, match="does not exist"):
        ldiv_db.risk(str(path), "t", qi=["a"])
    assert not path.exists()


HOLDER = """
import sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
con.execute("SELECT count(*) FROM t").fetchall()
print("holding", flush=True)
sys.stdin.read()
"""


def test_reads_of_a_chmod_444_file_held_by_another_reader_leave_it_byte_identical(
    released: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "held.duckdb"
    path.write_bytes(released.read_bytes())
    categories_file(tmp_path)
    path.chmod(0o444)
    before = sha256(path)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        for argv in read_commands(path):
            code = main(argv)
            _, err = capsys.readouterr()
            assert code in (0, 1) and "internal error" not in err, (argv, err)
            assert sha256(path) == before, f"{argv[0]} changed the file"
        # the other process's lock refuses a read-write open (root ignores chmod): the reads above
        # opened the file read-only
        code = main(["load", str(path), str(categories_file(tmp_path)), "--table", "x"])
        assert code == 2 and "cannot open database" in capsys.readouterr().err
    finally:
        holder.communicate("", timeout=30)
        path.chmod(0o644)
    assert sha256(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["held.duckdb", "occupation_categories.csv"]


def test_a_read_connection_refuses_writes_and_spills_elsewhere(released: Path) -> None:
    db = Database.open(released, mode="read")
    with pytest.raises(Exception, match="read-only"):
        db.con.execute("CREATE TABLE z (a INTEGER)")
    spill = str(db.raw_rows("SELECT current_setting('temp_directory')")[0][0])
    db.close()
    assert not spill.startswith(str(released))  # DuckDB's default is DB.tmp beside the file


def older_file(path: Path) -> Path:
    """A file whose ldiv schema is at migration 1 (written before 0002 shipped)."""
    db = plain_file(path)
    d = Database.open(db, migrate=False)
    first = shipped_migrations()[0]
    d.execute_script("bookkeeping", BOOKKEEPING)
    d.execute_script("0001", first.sql)
    d.raw_rows(
        "INSERT INTO ldiv.schema_migration (version, name, checksum) VALUES (?, ?, ?)",
        [first.version, first.name, first.checksum],
    )
    d.close()
    return path


def test_reads_of_an_older_read_only_schema_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = older_file(tmp_path / "old.duckdb")
    categories_file(tmp_path)
    path.chmod(0o444)
    before = sha256(path)
    results = run_all_reads(path, capsys)
    assert sha256(path) == before
    code, out, _ = results["doctor " + str(path)]
    assert code == 0 and "migration 1 of" in out and "pending" in out
    code, _, err = results["release history"]
    assert code == 2 and "no release stream" in err  # ldiv.stream (0002) is absent: read as empty
    assert results["check " + str(path)][0] == 0
    path.chmod(0o644)
    # the next write command migrates it
    code = main(["load", str(path), str(categories_file(tmp_path)), "--table", "x", "--sep", ";"])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    code = main(["doctor", str(path), "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0 and d["migration_version"] == d["shipped_version"] == len(shipped_migrations())


def test_a_connection_passed_in_is_left_as_found(tmp_path: Path) -> None:
    path = plain_file(tmp_path / "plain.duckdb")
    db = Database.open(path, mode="read", migrate=False)
    before = db.raw_rows("SELECT current_setting('search_path'), (SELECT count(*) FROM duckdb_databases())")
    res = ldiv_db.check(db.con, "t", list(PAPER.qi), "Occupation")
    assert res.rows == 8
    after = db.raw_rows("SELECT current_setting('search_path'), (SELECT count(*) FROM duckdb_databases())")
    assert after == before
    db.close()


def test_write_commands_still_create_and_migrate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new.duckdb"
    code = main(["load", str(path), str(categories_file(tmp_path)), "--table", "x", "--sep", ";"])
    assert code == 0 and path.exists(), capsys.readouterr().err
    capsys.readouterr()
    assert main(["doctor", str(path)]) == 0
    assert "healthy" in capsys.readouterr().out
    assert os.path.getsize(path) > 0


def _attach_cases(main_db: Path, other: Path, csv: Path) -> list[tuple[list[str], str]]:
    return [
        (["--attach", f"x={main_db}"], "it is the main database of this command"),
        (["--attach", f"x={other}", "--attach", f"y={other}"], "it is attached already as x"),
        (["--attach", f"ldiv={other}"], "that name is taken"),  # used to be DuckDB's "Ambiguous reference"
        (["--attach", f"LDIV_work={other}"], "that name is taken"),
        (["--attach", f"main={other}"], "that name is taken"),
        (["--attach", f"{main_db.stem}={other}"], "that name is taken"),  # the main file's catalog
        (["--attach", f"x={csv}"], "is not a DuckDB database file"),  # used to be "in-memory database"
        (["--attach", f"x={csv.parent}"], "is a directory"),
    ]


@pytest.mark.parametrize("command", ["check", "anonymize"])
def test_attach_edge_cases_are_clear_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """--attach is checked in one place (Database.attach): a DuckDB file that is neither the main database
    nor attached already, under an alias that no catalog or schema holds. A read and a write both refuse
    with a clear error and leave both files as they were."""
    main_db = plain_file(tmp_path / "maindb.duckdb")
    other = plain_file(tmp_path / "other.duckdb")
    csv = tmp_path / "data" / "t.csv"
    csv.parent.mkdir()
    csv.write_text("a;b\n1;2\n", encoding="utf-8")
    before = (sha256(main_db), sha256(other))
    base = {
        "check": ["check", str(main_db), "--table", "t", "--qi", "Zip", "--sa", "Occupation"],
        "anonymize": ["anonymize", str(main_db), "--table", "t", "--qi", "Zip", "--sa", "Occupation",
                      "--algorithm", "mondrian", "--l", "2", "--output", "o"],
    }[command]  # fmt: skip
    for extra, problem in _attach_cases(main_db, other, csv):
        code = main([*base, *extra])
        err = capsys.readouterr().err
        assert code == 2 and problem in err and "hint:" in err, (extra, err)
    assert (sha256(main_db), sha256(other)) == before
    code = main([*base[:2], "--attach", f"x={other}", *base[2:]])  # a good alias still works
    capsys.readouterr()
    assert code in (0, 1)


@pytest.mark.parametrize("command", [["check", "--table", "t", "--qi", "a", "--sa", "b"], ["doctor"]])
def test_a_csv_or_a_folder_given_as_the_database_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    csv = tmp_path / "t.csv"
    csv.write_text("a;b\n1;2\n", encoding="utf-8")
    for path, problem in ((csv, "is not a DuckDB database file"), (tmp_path, "is a directory")):
        code = main([command[0], str(path), *command[1:]])
        err = capsys.readouterr().err
        assert code == 2 and problem in err and "lock" not in err, err
    assert csv.read_text(encoding="utf-8") == "a;b\n1;2\n"
