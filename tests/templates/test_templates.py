"""Every template renders, parses as exactly one DuckDB statement, binds exactly the params its header
declares, matches its golden file, runs on the hostile-names fixture, and transpiles to Postgres and
Spark. Regenerate goldens with ``UPDATE_GOLDEN=1 make test`` and review the diff."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import sqlglot

from ldiv_db.sqlgen.render import default_renderer

from .harness import all_cases, make_env

GOLDEN = Path(__file__).parent / "golden"
TEMPLATES = default_renderer().templates()
CASES = all_cases()


def _normalized(sql: str) -> str:
    return sqlglot.transpile(sql, read="duckdb", write="duckdb", pretty=True)[0] + "\n"


def test_every_template_has_a_case() -> None:
    missing = [t for t in TEMPLATES if t not in CASES]
    stale = [c for c in CASES if c not in TEMPLATES]
    assert not missing, f"templates without a test case: {missing}"
    assert not stale, f"cases for templates that do not exist: {stale}"


def test_every_template_has_a_header() -> None:
    r = default_renderer()
    for name in TEMPLATES:
        h = r.header(name)
        assert h.purpose, f"{name}: header lacks '-- purpose:'"
        assert h.returns, f"{name}: header lacks '-- returns:'"


@pytest.fixture(scope="module")
def env():  # type: ignore[no-untyped-def]
    e = make_env()
    yield e
    e.db.close()


@pytest.mark.parametrize("name", TEMPLATES)
def test_template(name: str, env) -> None:  # type: ignore[no-untyped-def]
    case = CASES[name]
    r = default_renderer()
    header = r.header(name)
    ctx = case.ctx(env)
    q = r.render(name, case.params, **ctx)

    statements = [s for s in sqlglot.parse(q.sql, read="duckdb") if s is not None]
    assert len(statements) == 1, f"{name} renders {len(statements)} statements"

    used = set(re.findall(r"\$([A-Za-z_]\w*)", q.sql))
    assert used == set(header.params), f"{name}: uses {sorted(used)}, header declares {sorted(header.params)}"

    golden = GOLDEN / (name.replace("/", "__"))
    text = _normalized(q.sql)
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"{name} has no golden file; run UPDATE_GOLDEN=1 and review {golden.name}"
    assert text == golden.read_text(encoding="utf-8"), f"{name} differs from its golden file {golden.name}"

    for dialect in ("postgres", "spark"):
        out = sqlglot.transpile(q.sql, read="duckdb", write=dialect)
        assert out and out[0].strip(), f"{name} did not transpile to {dialect}"

    if case.execute:
        if case.prepare:
            case.prepare(env)
        try:
            env.execute(case, q, ctx)
        finally:
            if case.undo:
                case.undo(env)
