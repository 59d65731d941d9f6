"""What the schema layer needs of a database: the part of the engine interface (:mod:`ldiv_db.db`) that
the open-time rule, the migrations and the run bookkeeping use.

Every open runs this layer (:func:`ldiv_db.schema.state.prepare`), so it cannot import the engines that
open: it states what it uses, and every engine of :mod:`ldiv_db.db` provides it (checked by mypy where an
engine is passed in). See docs/decisions/0013-layers.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ..sqlgen.render import Query, TableRef


class SchemaDatabase(Protocol):
    dialect: str
    embedded: bool
    path: str | None
    queries: int
    stale_status: str
    ldiv_schema: str  # where ldiv_db's records are read (a read's stand-in schema when there are none)

    def run(self, query: Query) -> None: ...

    def rows(self, query: Query) -> list[tuple[Any, ...]]: ...

    def scalar(self, query: Query) -> Any: ...

    def raw_rows(
        self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None
    ) -> list[tuple[Any, ...]]: ...

    def execute_script(self, name: str, sql: str) -> None: ...

    def exists(self, ref: TableRef) -> bool: ...

    def transaction(self) -> AbstractContextManager[None]: ...

    def scratch_catalog(self, alias: str, *, keep: bool = False) -> AbstractContextManager[None]: ...

    def set_search_path(self, path: str) -> None: ...

    def flush_steps(self, run_id: int) -> None: ...

    def claim_run(self, run_id: int) -> None: ...

    def release_run(self, run_id: int) -> None: ...

    def owners_gone(self, run_ids: list[int]) -> list[int]: ...

    def connection_lost(self) -> bool: ...

    def fresh_session(self) -> Any: ...
