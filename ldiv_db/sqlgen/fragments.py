"""Fixed SQL fragments of the dialect rewrites (:mod:`ldiv_db.db.postgres.dialect`, :mod:`ldiv_db.db.spark.dialect`),
parsed once per process; each use fills a copy of the parsed tree."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import cast

import sqlglot
from sqlglot import exp


def fragment(text: str, dialect: str) -> exp.Expression:
    """A fresh tree of ``text`` in ``dialect``, for the caller to change."""
    return _parsed(text, dialect).copy()


def filled(
    text: str, dialect: str, place: Callable[[exp.Expression], exp.Expression], /, **nodes: exp.Expression
) -> exp.Expression:
    """A fresh tree of ``text`` in ``dialect`` with each given node where its column ``ldiv_<key>`` is, as
    ``place`` makes it (the engine's own parenthesizing)."""
    tree = fragment(text, dialect)
    for col in list(tree.find_all(exp.Column)):
        key = col.name.removeprefix("ldiv_")
        if col.name.startswith("ldiv_") and key in nodes:
            col.replace(place(nodes[key]))
    return tree


@functools.lru_cache(maxsize=256)
def _parsed(text: str, dialect: str) -> exp.Expression:
    return cast(exp.Expression, sqlglot.parse_one(text, read=dialect))
