"""Fixed SQL fragments of the dialect rewrites (:mod:`ldiv_db.db.postgres.dialect`, :mod:`ldiv_db.db.spark.dialect`),
parsed once per process; each use fills a copy of the parsed tree."""

from __future__ import annotations

import functools
from typing import cast

import sqlglot
from sqlglot import exp


def fragment(text: str, dialect: str) -> exp.Expression:
    """A fresh tree of ``text`` in ``dialect``, for the caller to change."""
    return _parsed(text, dialect).copy()


@functools.lru_cache(maxsize=256)
def _parsed(text: str, dialect: str) -> exp.Expression:
    return cast(exp.Expression, sqlglot.parse_one(text, read=dialect))
