"""Migration 0003 backfills ``ldiv.release_table`` in a database written before it: the tables of the
current releases that exist are recorded (three per Decomposition+ release), superseded releases and
missing tables are not; migration 0004 then counts those releases as published, so what 0003 recorded
is refused by its release's name, and a table changed since is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ldiv_db.cli.main import main
from ldiv_db.db import Database
from ldiv_db.schema.migrate import apply_migrations
from ldiv_db.util.resources import migrations_dir

RELEASE = (
    "INSERT INTO ldiv.release (release_id, run_id, name, source, algorithm, model, qi, sa, rows_in, "
    "rows_published, rows_suppressed, groups, verified, superseded_by) "
    "VALUES (?, 1, ?, 'main.people', ?, 'distinct', '[]', '[]', 40, ?, 0, 2, true, ?)"
)


@pytest.fixture
def old_file(tmp_path: Path) -> Path:
    """A database as ldiv_db wrote it before migration 0003."""
    old = tmp_path / "migrations"
    old.mkdir()
    for f in sorted(migrations_dir().glob("000[12]_*.sql")):
        shutil.copy(f, old / f.name)
    path = tmp_path / "old.duckdb"
    db = Database.open(path, migrate=False)
    apply_migrations(db, old)
    db.con.execute(
        "CREATE TABLE people AS SELECT '1007' || (i % 4) AS zip, ['F', 'M'][i % 2 + 1] AS sex, "
        "['a', 'b', 'c', 'd'][i % 4 + 1] AS disease FROM range(40) r(i)"
    )
    db.con.execute('CREATE SCHEMA "s.x"')
    for name in ("rel", '"s.x".rel', "grown", "st_qid", "st_sa", "st_marginals", "mine"):
        db.con.execute(f"CREATE TABLE {name} AS SELECT * FROM people")
    db.con.execute("INSERT INTO grown SELECT * FROM people")  # changed after it was written
    for row in (
        (101, "main.mine", "full-domain", 40, 102),  # superseded: 'mine' is not recorded
        (102, "main.mine", "full-domain", 40, None),  # ... but its successor is
        (103, "main.rel", "mondrian", 40, None),
        (104, "s.x.rel", "mondrian", 40, None),  # display name of "s.x".rel before quoting
        (105, "main.grown", "mondrian", 40, None),
        (106, "main.st", "decomposition", 40, None),
        (107, "main.gone", "mondrian", 40, None),  # its table no longer exists
    ):
        db.con.execute(RELEASE, list(row))
    db.con.execute("UPDATE ldiv.release SET superseded_by = NULL WHERE release_id = 102")
    db.close()
    return path


def test_backfill(old_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = Database.open(old_file)  # applies 0003
    recorded = db.con.execute(
        "SELECT schema_name, table_name, release_name, release_id, rows FROM ldiv.release_table ORDER BY 4, 2"
    ).fetchall()
    db.close()
    assert recorded == [
        ("main", "mine", "mine", 102, 40),
        ("main", "rel", "rel", 103, 40),
        ("s.x", "rel", "rel", 104, 40),
        ("main", "grown", "grown", 105, 40),
        ("main", "st_marginals", "st", 106, 40),
        ("main", "st_qid", "st", 106, 40),
        ("main", "st_sa", "st", 106, 40),
    ]
    base = ["anonymize", str(old_file), "--table", "people", "--qi", "zip,sex", "--sa", "disease", "--l", "2"]
    base += ["--algorithm", "mondrian", "--quiet", "--replace", "--output"]
    # migration 0004 counts the releases written before it as published: recorded as theirs, and final
    assert main([*base, "rel"]) == 2
    assert "it is the published release 103" in capsys.readouterr().err
    assert main([*base, '"s.x".rel']) == 2
    assert "it is the published release 104" in capsys.readouterr().err
    assert main([*base, "grown"]) == 2
    assert "40 rows then, 80 now" in capsys.readouterr().err
    assert main([*base, "people"]) == 2
    assert "is the source table" in capsys.readouterr().err
