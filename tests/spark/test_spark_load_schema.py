"""``ldiv load`` on Spark and the ``ldiv`` schema: a load of a new table names no table of ``ldiv``, so it
opens with ``migrate=WHEN_NEEDED`` and the schema rule (the migrations, or the check that they are current)
waits for the first thing that names ``ldiv``: a target that exists (its owner, a replace's forget) or any
template naming ``ldiv``. The first write after such a load on a fresh warehouse migrates it; a read
before it reads a stand-in schema held as empty frames, and writes nothing to the catalog."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fixtures.papers import PAPER_TABLES
from ldiv_db import api
from ldiv_db.db import WHEN_NEEDED, Database
from ldiv_db.db.spark import engine
from ldiv_db.db.spark.schema import stand_in
from ldiv_db.errors import BadInput, LdivError
from ldiv_db.sqlgen.render import Query, TableRef

pytestmark = pytest.mark.spark


def _rules(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The modes the Spark schema rule runs with from now on (this test only)."""
    calls: list[str] = []
    real = engine.prepare_spark

    def spy(db: Any, mode: str) -> None:
        calls.append(mode)
        real(db, mode)

    monkeypatch.setattr(engine, "prepare_spark", spy)
    return calls


def test_a_load_applies_the_schema_rule_only_for_a_target_that_exists(  # type: ignore[no-untyped-def]
    spark_session, spark_url, monkeypatch
) -> None:
    table = PAPER_TABLES["bsgi_table1"]
    rules = _rules(monkeypatch)
    api.load(spark_url, str(table.path), "t_load_rule", replace=True)  # a new table: ldiv not named
    assert rules == []
    api.load(spark_url, str(table.path), "t_load_rule", replace=True)  # replaced: its owner is asked
    assert rules == ["write"]
    with pytest.raises(BadInput, match="already exists"):  # the message says what the table is
        api.load(spark_url, str(table.path), "t_load_rule")
    assert rules == ["write", "write"]
    with Database.open(spark_url) as db:  # every other command: the rule at the open, as before
        assert rules == ["write"] * 3
        assert db.scalar(Query("t", "SELECT count(*) FROM main.t_load_rule")) == table.rows


def test_a_template_naming_ldiv_applies_the_rule_first(spark_session, spark_url, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    rules = _rules(monkeypatch)
    db = Database.open(spark_url, migrate=WHEN_NEEDED)
    try:
        assert rules == []
        db.scalar(Query("t", "SELECT count(*) FROM ldiv.schema_migration"))
        assert rules == ["write"]
        db.need_ldiv()  # once per connection
        assert rules == ["write"]
    finally:
        db.close()
    with Database.open(spark_url, mode="read", migrate=WHEN_NEEDED) as read:  # a read: the read's rule
        assert rules == ["write", "read"] and read.read_only


def test_a_reads_stand_in_is_held_not_written(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    """The stand-in's tables are empty frames: no work schema in the catalog, the templates read them as
    the ldiv tables, and a read may not write them; a command's end keeps them for the connection's next
    command, its close drops them."""
    db = Database.open(spark_url, mode="read", migrate=False)
    try:
        stand_in(db)
        ws = db.work_schema
        assert db.ldiv_schema == ws and not spark_session.catalog.databaseExists(ws)
        assert db.scalar(Query("t", "SELECT count(*) FROM ldiv.release")) == 0
        assert db.exists(TableRef("schema_migration", ws))
        assert spark_session.table(db.spark_ref(TableRef("run", ws))).columns[:2] == ["run_id", "command"]
        db.drop_work_tables()  # a command's end
        assert db.scalar(Query("t", "SELECT count(*) FROM ldiv.run")) == 0
        with pytest.raises(LdivError, match="read-only"):
            db.run(Query("t", "INSERT INTO ldiv.run (run_id, command) VALUES (1, 'x')"))
    finally:
        db.close()
    assert not spark_session.catalog.databaseExists(ws)
    assert not [t for t in spark_session.catalog.listTables() if t.isTemporary and t.name.startswith(ws)]


def test_a_stand_in_table_written_is_made_by_its_own_ddl(spark_session, spark_url) -> None:  # type: ignore[no-untyped-def]
    """A statement that writes a held stand-in table makes it a catalog table by the migration's own
    ``CREATE TABLE`` first, so a column's default holds (a copy of the empty frame would lose it)."""
    db = Database.open(spark_url, mode="write", migrate=False)
    try:
        stand_in(db)
        ws = db.work_schema
        db.run(Query("t", "INSERT INTO ldiv.schema_migration (version, name, checksum) VALUES (1, 'a', 'b')"))
        assert spark_session.catalog.tableExists(f"{ws}.schema_migration")
        rows = db.rows(Query("t", "SELECT version, applied_at IS NOT NULL FROM ldiv.schema_migration"))
        assert rows == [(1, True)]
    finally:
        db.drop_work_tables()
        db.close()
    assert not spark_session.catalog.databaseExists(ws)


ROOT = Path(__file__).resolve().parents[2]


def test_the_first_command_after_a_load_on_a_fresh_warehouse(tmp_path: Path, spark_session) -> None:  # type: ignore[no-untyped-def]
    """A load leaves a fresh warehouse without the ``ldiv`` schema; a read after it writes nothing; the
    first write migrates and finds the loaded table (each command a process of its own, as a user runs
    them)."""
    warehouse = tmp_path / "wh"
    url = f"spark://local[2]?warehouse={warehouse}&spark.sql.shuffle.partitions=2"
    table = PAPER_TABLES["bsgi_table1"]
    ldiv = str(Path(sys.executable).with_name("ldiv"))

    def run(*args: str) -> str:
        done = subprocess.run([ldiv, *args], cwd=ROOT, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    run("load", url, str(table.path), "--table", "t")
    assert (warehouse / "main.db" / "t").is_dir() and not (warehouse / "ldiv.db").exists()
    run("releases", url)
    qi, sa = ",".join(table.qi), ",".join(table.sa)
    run("check", url, "--table", "t", "--qi", qi, "--sa", sa)
    assert sorted(p.name for p in warehouse.iterdir() if p.suffix == ".db") == [
        "main.db"
    ]  # a read wrote none
    got = json.loads(run("anonymize", url, "--table", "t", "--qi", qi, "--sa", sa, "--algorithm", "tp",
                         "--l", "2", "--output", "t_tp", "--json", "--quiet"))  # fmt: skip
    assert got["verified"] is True and got["rows_in"] == table.rows
    assert (warehouse / "ldiv.db" / "schema_migration").is_dir()
