"""The ownership rule has one enforcement point: only ldiv_db/core/ownership.py renders the statement that
drops a table the user can see, and every module that creates one goes through ownership first."""

from __future__ import annotations

import re
from pathlib import Path

from ldiv_db.util.resources import sql_dir

ROOT = Path(__file__).resolve().parents[2] / "ldiv_db"
WORK_TABLE_DROPS = {"catalog/drop_work_table.sql"}  # drops work tables (Database.work_table refs)
# Templates that create only a private table in schema ldiv (never a user-visible one): a stream's row
# keys. Its module names the table through Database.private_ref (schema ldiv, in the engine's spelling;
# staged on Spark), and the stream's writer drops it through ownership.
PRIVATE_WRITERS = {"decomposition/keys_write.sql": "algorithms/decomposition/keys.py"}
# A release's tables are created by its Release.write, which only the one release pipeline calls, right
# after ownership.drop_for_release.
PIPELINE = "pipeline/publish.py"
# An engine-level helper that creates the table its caller names (a DataFrame's copy, Database.load_frame):
# the engine layer may not ask ownership, so every caller must — or create the table in a database it
# opened itself, in memory, where no user table can exist.
HELPER_WRITERS = {"catalog/load_frame.sql": ("db/duckdb/engine.py", "load_frame")}


def _templates() -> dict[str, str]:
    root = sql_dir()
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in root.rglob("*.sql")}


def _modules() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in ROOT.rglob("*.py")}


def test_one_template_drops_user_visible_tables_and_only_ownership_renders_it() -> None:
    drops = {name for name, text in _templates().items() if re.search(r"\bDROP\s+(TABLE|VIEW)\b", text, re.I)}
    assert drops == {"ownership/drop_table.sql"} | WORK_TABLE_DROPS
    users = {m for m, text in _modules().items() if "ownership/drop_table.sql" in text}
    assert users == {"core/ownership.py"}
    for engine in ("db/__init__.py", "db/postgres/engine.py"):  # the engine layer drops only its work tables
        assert "DROP TABLE" not in _modules()[engine].replace("DROP TABLE IF EXISTS {ref.sql()}", "")


def test_every_writer_of_a_persistent_table_asks_ownership() -> None:
    creating = {
        name
        for name, text in _templates().items()
        if re.search(r"CREATE\s+(OR\s+REPLACE\s+)?TABLE\s+\{\{\s*\w+\s*\|\s*table\s*\}\}", text)
    }
    assert creating  # release/write.sql, decomposition/write_*.sql, catalog/load_*.sql
    for name in sorted(creating):
        writers = [m for m, text in _modules().items() if f'"{name}"' in text]
        assert writers, f"{name} is rendered nowhere"
        for module in writers:
            text = _modules()[module]
            if PRIVATE_WRITERS.get(name) == module:
                assert re.search(r'db\.private_ref\(f"keys:\{name\}"\)', text), f"{name} is no longer private"
                continue
            if HELPER_WRITERS.get(name, ("",))[0] == module:
                _callers_ask_ownership(*HELPER_WRITERS[name])
                continue
            if re.search(r"^class \w+\(Release\):", text, re.M):
                _only_the_pipeline_writes_releases()
                continue
            # check_new_table: a derived table (ldiv risk --rows-out) is only ever new; its CREATE TABLE
            # (never OR REPLACE, asserted below) fails rather than replace a table made meanwhile
            assert re.search(r"ownership\.(drop_for_release|drop_for_load|check_new_table)\(", text), (
                f"{module} creates tables with {name} without ldiv_db/core/ownership.py"
            )
    assert not any("CREATE OR REPLACE TABLE {{" in t for t in _templates().values())


def _callers_ask_ownership(module: str, function: str) -> None:
    callers = {
        m: t for m, t in _modules().items() if m != module and re.search(rf"(?<!def )\b{function}\(", t)
    }
    assert callers, f"{module}: {function} is called nowhere"
    for caller, text in callers.items():
        asks = re.search(r"ownership\.(check_load_target|drop_for_load)\(", text)
        in_memory = re.search(r'Database\.open\(":memory:"', text)
        assert asks or in_memory, f"{caller} calls {function} without ldiv_db/core/ownership.py"


def _only_the_pipeline_writes_releases() -> None:
    """Release.write is called by the pipeline alone, after ownership.drop_for_release."""
    callers = {m for m, text in _modules().items() if re.search(r"\brelease\.write\(", text)}
    assert callers == {PIPELINE}
    text = _modules()[PIPELINE]
    drop, write = text.find("ownership.drop_for_release("), text.find("release.write(db)")
    assert 0 <= drop < write, "the pipeline writes a release before ownership.drop_for_release"
