"""The fake engine's SQL: sqlglot's DuckDB, with one rewrite in its generator's TRANSFORMS (written as
DuckDB writes it, and counted, so the test sees that every statement went through this dialect)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from sqlglot import exp
from sqlglot.dialects.duckdb import DuckDB
from sqlglot.generators.duckdb import DuckDBGenerator

from ldiv_db.sqlgen.dialects import Target, rewritten

WRITTEN: dict[str, int] = {"count": 0}


def _counted(node: exp.Expression) -> exp.Expression:
    WRITTEN["count"] += 1
    return node


class FakeDuck(DuckDB):
    class Generator(DuckDBGenerator):
        TRANSFORMS: ClassVar[dict[type[exp.Expr], Callable[..., str]]] = {
            **DuckDBGenerator.TRANSFORMS,
            **rewritten(DuckDBGenerator, {exp.Count: _counted}),
        }


FAKE = Target(FakeDuck)
