"""Shared plumbing for the template tests: a hostile-name database and the per-template cases.

Each area registers its templates in ``tests/templates/cases_<area>.py`` as ``CASES = {name: Case(...)}``.
A case builds the render context from the :class:`HostileEnv` (resolved table, hostile identifiers), gives
sample values for every declared param, and may prepare work tables before the statement runs.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fixtures.hostile import HOSTILE_CLASS, HOSTILE_GROUP, HOSTILE_QI, HOSTILE_SA, HOSTILE_TABLE, create_sql
from ldiv_db.core.catalog import Table, resolve_table
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Ident, Query, TableRef, render


@dataclass
class HostileEnv:
    db: Database
    table: Table

    @property
    def con(self) -> Any:
        """Where a case's fixed set-up SQL (DuckDB's dialect, ``$name`` values) runs: DuckDB's connection,
        or on another engine a statement translated as ldiv_db's own are (its cursor is returned)."""
        if self.db.dialect == "duckdb":
            return self.db.con  # type: ignore[attr-defined]
        return _SetUp(self.db)

    @property
    def source(self) -> TableRef:
        return self.table.ref

    @property
    def qi(self) -> list[Ident]:
        return [Ident(n) for n in HOSTILE_QI]

    @property
    def sa(self) -> Ident:
        return Ident(HOSTILE_SA)

    @property
    def group(self) -> Ident:
        return Ident(HOSTILE_GROUP)

    @property
    def klass(self) -> Ident:
        return Ident(HOSTILE_CLASS)

    def catalog_name(self, name: str) -> str:
        """A case's (non-work) table or schema name: the hostile name as given, except on an engine whose
        catalog takes letters, digits and ``_`` only (Spark: README, "Limits on Spark"), where other
        characters become ``_``. Column names stay hostile on every engine."""
        if self.db.dialect == "spark":
            return re.sub(r"[^A-Za-z0-9_]", "_", name).lower()
        return name

    def named(self, name: str, schema: str = "main") -> TableRef:
        return TableRef(self.catalog_name(name), schema)

    def work(self, name: str) -> TableRef:
        # hostile work-table names too
        return self.db.work_table(f"wk {name}'s")

    def run(self, name: str, params: dict[str, Any] | None = None, **ctx: Any) -> None:
        self.db.run(render(name, params, **ctx))

    def run_query(self, q: Query) -> None:
        self.db.run(q)

    def execute(self, case: Case, q: Query, ctx: dict[str, Any]) -> None:
        """Run a statement the way ldiv_db runs it (a file-reading template through ``load_file``)."""
        if case.load_file:
            self.db.load_file(q, ctx["target"])
        else:
            self.db.run(q)


class _SetUp:
    def __init__(self, db: Database) -> None:
        self.db = db

    def execute(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        return self.db._send(Query("test set-up", sql, dict(params or {})))


@dataclass
class Case:
    ctx: Callable[[HostileEnv], dict[str, Any]]
    params: dict[str, Any] = field(default_factory=dict)
    prepare: Callable[[HostileEnv], None] | None = None
    execute: bool = True
    # a file-reading template: ``ldiv load`` runs it through ``Database.load_file`` (DuckDB reads the
    # file, then the table reaches the engine), so the tests run it that way on every engine
    load_file: bool = False
    # its lists are sets (e.g. counts aggregated in no order): the engines are compared with them sorted
    unordered_lists: bool = False
    # the engines whose statement it is (empty: every engine); the others' template tests skip it
    engines: tuple[str, ...] = ()
    # takes back what the statement wrote outside the fixture's own tables (ldiv's bookkeeping), for an
    # engine whose database the other tests share (Spark's warehouse)
    undo: Callable[[HostileEnv], None] | None = None


def make_env() -> HostileEnv:
    db = Database.open(":memory:")
    for stmt in create_sql():
        db.con.execute(stmt)
    return HostileEnv(db, resolve_table(db, HOSTILE_TABLE))


def all_cases() -> dict[str, Case]:
    import tests.templates as pkg

    cases: dict[str, Case] = {}
    for mod in pkgutil.iter_modules(pkg.__path__):
        if mod.name.startswith("cases_"):
            module = importlib.import_module(f"tests.templates.{mod.name}")
            dup = cases.keys() & module.CASES.keys()
            assert not dup, f"templates registered twice: {dup}"
            cases.update(module.CASES)
    return cases
