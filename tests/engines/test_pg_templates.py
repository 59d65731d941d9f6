"""Execute and compare: every template case of tests/templates runs on DuckDB and on PostgreSQL, on the
hostile-names fixture, and returns the same rows (a statement that creates a table: the same table).

Values are compared after normalization: floats to 9 significant digits, lists as tuples. Hash-based
ids (any integer beyond 32 bits) differ between engines by design (ldiv_db/db/*/dialect.py): they are
compared up to renumbering — the rows must partition the same way under each id column.
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlglot
from sqlglot import exp

from fixtures.hostile import HOSTILE_TABLE, create_sql
from ldiv_db.core.catalog import resolve_table
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Query, TableRef, default_renderer
from tests.templates.harness import HostileEnv, all_cases, make_env

TEMPLATES = default_renderer().templates()
CASES = all_cases()

# Templates that do not run on PostgreSQL, each with the reason (strict: one that starts to run must
# leave this list).
# (none now: the file-reading templates run as ``ldiv load`` runs them, through ``load_file``).
KNOWN_GAPS: dict[str, str] = {}

# Templates whose values name the engine itself: they must run on both (meta/releases and the digest
# with as many rows), but their values differ by design.
ENGINE_SPECIFIC: dict[str, str] = {
    "catalog/tables.sql": "the database's name ('memory' on DuckDB); the DuckDB-only load cases add tables",
    "catalog/columns.sql": "the case binds DuckDB's catalog name; types are spelled per engine",
    "ownership/digest.sql": "a digest from the engine's own hash; compared only within one database",
    "meta/releases.sql": "creation timestamps of the releases the cases wrote",
}

_ID = "<id>"


@pytest.fixture(scope="module")
def engines(pg_server) -> Iterator[tuple[HostileEnv, HostileEnv]]:  # type: ignore[no-untyped-def]
    duck = make_env()
    pg = Database.open(pg_server.url(pg_server.new_database("tmpl")))
    pg.raw_rows("SET search_path = main, public")  # unqualified names in test helpers mean main, as on DuckDB
    for stmt in create_sql():  # in schema main, as on DuckDB (test helpers name main."select")
        stmt = stmt.replace('TABLE "select"', 'TABLE main."select"').replace(
            'INTO "select"', 'INTO main."select"'
        )
        pg.execute_script("hostile fixture", stmt)
    pg_env = HostileEnv(pg, resolve_table(pg, HOSTILE_TABLE))
    yield duck, pg_env
    duck.db.close()
    pg.close()


def _norm(v: Any, sets: bool = False) -> Any:
    """A value for comparison; with ``sets``, a list's elements in sorted order (a case's unordered lists)."""
    if sets and isinstance(v, (list, tuple)):
        return tuple(sorted((_norm(x) for x in v), key=repr))
    if isinstance(v, Decimal):
        v = float(v)
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return _ID if abs(v) >= 2**32 else v
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if v.is_integer() and abs(v) < 2**53:
            return int(v)
        return float(f"{v:.9g}")
    if isinstance(v, (list, tuple)):
        return tuple(_norm(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _norm(x)) for k, x in v.items()))
    return str(v)


def _partitions(rows: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    """For every column holding hash ids: the rows grouped by that id, ids left out, order-free."""
    out = []
    width = len(rows[0]) if rows else 0
    for c in range(width):
        if not any(isinstance(r[c], int) and not isinstance(r[c], bool) and abs(r[c]) >= 2**32 for r in rows):
            continue
        groups: dict[Any, list[str]] = defaultdict(list)
        for r in rows:
            groups[r[c]].append(repr(tuple(_norm(x) for x in r)))
        out.append(sorted(repr(sorted(g)) for g in groups.values()))
    return out


GOLDEN = Path(__file__).parent / "golden_postgres"


def _golden(env: HostileEnv, name: str, q: Query) -> None:
    """The PostgreSQL statements of the case match tests/engines/golden_postgres/ (UPDATE_GOLDEN=1
    rewrites them; review the diff)."""
    if env.db.dialect != "postgres":
        return
    text = ";\n".join(
        sqlglot.transpile(s.replace("%%", "%"), read="postgres", write="postgres", pretty=True)[0]
        for s in env.db._statements(q)  # type: ignore[attr-defined]  # "%%": psycopg's literal %
    )
    golden = GOLDEN / (name.replace("/", "__"))
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(text + "\n", encoding="utf-8")
    assert golden.exists(), f"{name} has no PostgreSQL golden file; run UPDATE_GOLDEN=1 and review it"
    assert text + "\n" == golden.read_text(encoding="utf-8"), f"{name} differs from {golden.name}"


def _result(env: HostileEnv, name: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    case = CASES[name]
    ctx = case.ctx(env)
    if case.prepare:
        case.prepare(env)
    q = default_renderer().render(name, case.params, **ctx)
    if not case.load_file:  # a file-reading template runs in DuckDB; PostgreSQL receives the rows by COPY
        _golden(env, name, q)
    if isinstance(sqlglot.parse_one(q.sql, read="duckdb"), exp.Query):
        raw = env.db.rows(q)
        names = [f"c{i}" for i in range(len(raw[0]) if raw else 0)]
        return names, raw
    if (
        isinstance(sqlglot.parse_one(q.sql, read="duckdb"), exp.Insert | exp.Update | exp.Delete)
        and " RETURNING " in q.sql.upper()
    ):
        return ["returning"], env.db.rows(q)
    try:
        env.execute(case, q, ctx)
    finally:
        if case.undo:
            case.undo(env)
    target = ctx.get("target")
    if isinstance(target, TableRef) and env.db.exists(target):
        raw = env.db.rows(Query("read back", f"SELECT * FROM {target.sql()}"))
        return ["table"], raw
    return [], []


@pytest.mark.parametrize("name", TEMPLATES)
def test_same_rows_on_postgres(name: str, engines: tuple[HostileEnv, HostileEnv]) -> None:
    case = CASES[name]
    if not case.execute:
        pytest.skip("the template case is render-only")
    if case.engines and "postgres" not in case.engines:
        pytest.skip(f"a statement of {', '.join(case.engines)} only")
    duck, pg = engines
    _, want = _result(duck, name)
    if name in KNOWN_GAPS:
        with pytest.raises(Exception):  # noqa: B017 - any failure: the gap is documented
            _result(pg, name)
        return
    _, got = _result(pg, name)
    if name in ENGINE_SPECIFIC:
        if name in ("meta/releases.sql", "ownership/digest.sql"):
            assert len(got) == len(want)
        return
    sets = case.unordered_lists
    assert sorted(map(repr, (tuple(_norm(x, sets) for x in r) for r in got))) == sorted(
        map(repr, (tuple(_norm(x, sets) for x in r) for r in want))
    ), f"{name}: rows differ"
    assert _partitions(got) == _partitions(want), f"{name}: hash ids partition the rows differently"
