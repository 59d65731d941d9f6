"""The fake engine's class: what :class:`ldiv_db.db.base.Database` leaves abstract, on a DuckDB
connection; every statement is translated through :data:`.dialect.FAKE`."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import duckdb
import pandas as pd

from ldiv_db.db.base import Database
from ldiv_db.schema.migrate import apply_migrations
from ldiv_db.sqlgen.dialects import translate
from ldiv_db.sqlgen.render import Ident, Query, TableRef, render

from .dialect import FAKE

SCHEME = "fakeduck://"


class FakeDatabase(Database):
    dialect = "fakeduck"
    target = FAKE
    driver_error = duckdb.Error

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.con = duckdb.connect(":memory:")

    @classmethod
    def connect(cls, url: str, *, mode: str, attach: Mapping[str, str] | None, migrate: bool) -> FakeDatabase:
        db = cls(url)
        if migrate and mode == "write":  # the engine's open-time rule: here only the migrations
            apply_migrations(db)
        return db

    def _statements(self, sql: str, **kw: Any) -> list[str]:
        return translate(sql, self.target, **kw)

    def _send(self, query: Query) -> Any:
        cur = None
        with self._engine(f"query {query.name}"):
            for sql in self._statements(query.sql_for(self.dialect), params=frozenset(query.params)):
                cur = self.con.execute(sql, dict(query.params) or None)
        return cur

    def close(self, *, failed: bool = False) -> None:
        self.con.close()

    def insert_frame(self, table: TableRef, frame: pd.DataFrame) -> None:
        view = f"fake_frame_{uuid.uuid4().hex[:8]}"
        self.con.register(view, frame)
        try:
            cols = [Ident(str(c)) for c in frame.columns]
            self._send(render("catalog/append_frame.sql", target=table, columns=cols, frame=TableRef(view)))
            self.queries += 1
        finally:
            self.con.unregister(view)

    def load_file(self, query: Query, target: TableRef) -> None:
        self.run(query)

    def execute_script(self, name: str, sql: str) -> None:
        with self._engine(name):
            for stmt in self._statements(sql):
                self.con.execute(stmt)
        self.queries += 1

    def raw_rows(
        self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None
    ) -> list[tuple[Any, ...]]:
        self.queries += 1
        statements = self._statements(sql, positional=True)
        with self._engine("a bookkeeping query"):
            for stmt in statements[:-1]:
                self.con.execute(stmt)
            return self.con.execute(statements[-1], params).fetchall()

    def _tx_statement(self, sql: str) -> None:
        with self._engine(sql):
            self.con.execute(sql)

    def interrupt(self) -> None:
        self.con.interrupt()

    def _work_ref(self, name: str) -> TableRef:
        return TableRef(name, "main", "temp")

    def drop_work_tables(self) -> None:
        for ref in self._work_tables:
            with contextlib.suppress(duckdb.Error):
                self._send(render("catalog/drop_work_table.sql", target=ref))
        self._work_tables.clear()
