"""A damaged ldiv schema (issue 11) is refused when the file is opened, before anything is written, and
``ldiv doctor DB [--repair]`` reports it and restores what can be restored safely."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import ldiv_db
from fixtures.papers import PAPER_TABLES, read_table
from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.schema.migrate import shipped_migrations
from tests.integration.frames import make_table

PAPER = PAPER_TABLES["decomposition_table1"]
ANONYMIZE = [
    "--table",
    "t",
    "--qi",
    "Gender,Zip",
    "--sa",
    "Occupation",
    "--algorithm",
    "mondrian",
    "--l",
    "2",
]


@pytest.fixture(scope="module")
def released_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("doctor") / "released.duckdb"
    db = Database.open(path)
    make_table(db, "t", read_table(PAPER).sort_values("row_id"))
    ldiv_db.anonymize(db, "t", ["Gender", "Zip"], "Occupation", algorithm="mondrian", l=2, output="m")
    db.close()
    return path.read_bytes()


def damaged(tmp_path: Path, data: bytes, *statements: str) -> Path:
    path = tmp_path / "damaged.duckdb"
    path.write_bytes(data)
    db = Database.open(path, migrate=False)  # no schema rule: the damage is done behind ldiv_db's back
    for sql in statements:
        db.con.execute(sql)
    db.close()
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def scalar(path: Path, sql: str) -> object:
    db = Database.open(path, mode="read")
    try:
        return db.raw_rows(sql)[0][0]
    finally:
        db.close()


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, err
    return code, out, err


def test_a_dropped_run_step_is_refused_before_anything_is_written_and_repaired(
    tmp_path: Path, released_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, released_bytes, "DROP TABLE ldiv.run_step")
    before = sha256(path)
    code, _, err = cli(capsys, "anonymize", str(path), *ANONYMIZE, "--output", "again", "--quiet")
    assert (
        code == 2
        and "ldiv schema" in err
        and "damaged" in err
        and "ldiv.run_step: the table is missing" in err
    )
    assert "ldiv doctor" in err and "--repair" in err
    assert sha256(path) == before  # nothing written: no run, no release, no output table
    code, _, err = cli(capsys, "check", str(path), "--table", "t", "--qi", "Gender", "--sa", "Occupation")
    assert code == 2 and "damaged" in err
    code, out, _ = cli(capsys, "doctor", str(path))
    assert code == 1 and "ldiv.run_step: the table is missing" in out and "--repair would: recreate" in out
    assert sha256(path) == before  # doctor without --repair only reads
    code, out, _ = cli(capsys, "doctor", str(path), "--repair")
    assert code == 0 and "repaired: recreate the table empty" in out and "healthy after the repair" in out
    code, out, _ = cli(capsys, "anonymize", str(path), *ANONYMIZE, "--output", "again", "--quiet", "--json")
    run_id = json.loads(out)["run_id"]
    assert code == 0
    assert scalar(path, f"SELECT count(*) FROM ldiv.run_step WHERE run_id = {run_id}") > 0
    assert scalar(path, "SELECT count(*) FROM ldiv.release") == 2


def test_a_dropped_migration_row_is_re_recorded(
    tmp_path: Path, released_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    last = shipped_migrations()[-1]
    path = damaged(
        tmp_path, released_bytes, f"DELETE FROM ldiv.schema_migration WHERE version = {last.version}"
    )
    code, _, err = cli(capsys, "releases", str(path))
    assert code == 2 and f"migration {last.version:04d}_{last.name}: not recorded" in err
    code, out, _ = cli(capsys, "doctor", str(path), "--repair", "--json")
    d = json.loads(out)
    assert code == 0 and d["healthy"] and d["repaired"]
    assert [p["problem"] for p in d["problems"]] == ["unrecorded"]
    recorded = scalar(path, f"SELECT checksum FROM ldiv.schema_migration WHERE version = {last.version}")
    assert recorded == last.checksum
    code, out, _ = cli(capsys, "releases", str(path))
    assert code == 0 and "main.m" in out


def test_a_dropped_column_of_a_table_with_rows_cannot_be_repaired(
    tmp_path: Path, released_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, released_bytes, "ALTER TABLE ldiv.run DROP COLUMN error")
    code, out, _ = cli(capsys, "doctor", str(path), "--repair")
    assert code == 1 and "ldiv.run: missing column(s) error" in out
    assert "cannot repair: ldiv.run holds 1 row(s)" in out and "problems remain" in out
    code, _, err = cli(capsys, "anonymize", str(path), *ANONYMIZE, "--output", "again", "--quiet")
    assert code == 2 and "missing column(s) error" in err


def test_an_empty_changed_table_is_recreated(
    tmp_path: Path, released_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, released_bytes, "ALTER TABLE ldiv.noise DROP COLUMN distance")
    code, out, _ = cli(capsys, "doctor", str(path), "--repair")
    assert code == 0 and "ldiv.noise: missing column(s) distance" in out
    assert (
        scalar(
            path,
            "SELECT count(*) FROM duckdb_columns() WHERE table_name = 'noise' AND column_name = 'distance'",
        )
        == 1
    )


def test_release_data_is_never_recreated(
    tmp_path: Path, released_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, released_bytes, "DROP TABLE ldiv.release_row")
    code, out, _ = cli(capsys, "doctor", str(path), "--repair")
    assert code == 1 and "cannot repair: ldiv.release holds 1 row(s) that refer to it" in out
    assert scalar_raw(path, "SELECT count(*) FROM ldiv.release") == 1  # the release record is untouched
    code, _, err = cli(capsys, "anonymize", str(path), *ANONYMIZE, "--output", "again", "--quiet")
    assert code == 2 and "ldiv.release_row: the table is missing" in err


def test_a_dropped_sequence_restarts_after_the_largest_id(
    tmp_path: Path, released_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, released_bytes, "DROP SEQUENCE ldiv.run_seq")
    top = int(str(scalar_raw(path, "SELECT max(run_id) FROM ldiv.run")))
    code, out, _ = cli(capsys, "doctor", str(path), "--repair")
    assert code == 0 and f"recreate the sequence starting at {top + 1}" in out
    code, out, _ = cli(capsys, "anonymize", str(path), *ANONYMIZE, "--output", "again", "--quiet", "--json")
    assert code == 0 and json.loads(out)["run_id"] == top + 1


def scalar_raw(path: Path, sql: str) -> object:
    db = Database.open(path, mode="read", migrate=False)
    try:
        return db.raw_rows(sql)[0][0]
    finally:
        db.close()


def test_doctor_on_a_missing_path_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none.duckdb"
    code, _, err = cli(capsys, "doctor", str(path), "--repair")
    assert code == 2 and "does not exist" in err and not path.exists()
