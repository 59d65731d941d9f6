"""Integer codes of the SA values of a Decomposition+ pool, and the distances between them in an SA's
hierarchy (SPEC §4.4: the noise value nearest in the hierarchy)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import BadInput, InternalError
from ...taxonomy import load
from ...util.lazy import library

if TYPE_CHECKING:
    import pandas as pd

    from ...db import Database
else:
    pd = library("pandas")


@functools.cache
def _text() -> Any:
    """The dtype pandas gives a column of text: Arrow-backed ``str`` on pandas 3, object before (asked on
    first use, so that importing this module loads no pandas)."""
    return pd.Series(["x"]).dtype


class Coder:
    """Integer codes of one SA's values (as text; None = NULL): pool values in first-appearance order
    (row-key order), then values only earlier releases hold."""

    def __init__(self, values: pd.Series) -> None:
        codes, uniques = pd.factorize(values, sort=False, use_na_sentinel=False)
        self._set(np.asarray(codes, dtype=np.int64), [None if _isna(u) else str(u) for u in uniques])

    def _set(self, codes: np.ndarray, values: list[str | None]) -> None:
        self.codes = codes
        self.values = values
        self.index: dict[str | None, int] = {v: i for i, v in enumerate(self.values)}

    @classmethod
    def of_codes(cls, codes: np.ndarray, spellings: Sequence[str | None]) -> Coder:
        """The coder of the values ``spellings[codes]`` (every spelling used; the engine's numbering, in
        any order): the same codes and values as :class:`Coder` of that column, without its text."""
        codes = np.asarray(codes, dtype=np.int64)
        used, first = np.unique(codes, return_index=True)
        if len(used) != len(spellings) or (len(used) and (used[0] < 0 or used[-1] >= len(spellings))):
            raise InternalError(f"{len(used)} codes of {len(spellings)} spellings in the pool's SA column")
        order = used[np.argsort(first)]  # the engine's codes in first-appearance order
        renumber = np.empty(len(spellings), dtype=np.int64)
        renumber[order] = np.arange(len(order))
        coder = cls.__new__(cls)
        coder._set(renumber[codes], [None if spellings[c] is None else str(spellings[c]) for c in order])
        return coder

    def encode(self, values: Sequence[Any]) -> np.ndarray:
        out = np.empty(len(values), dtype=np.int64)
        for i, v in enumerate(values):
            key = None if _isna(v) else str(v)
            code = self.index.get(key)
            if code is None:
                code = len(self.values)
                self.values.append(key)
                self.index[key] = code
            out[i] = code
        return out

    @property
    def size(self) -> int:
        return len(self.values)

    def order(self) -> np.ndarray:
        """Rank of every code in value order (NULL first, numbers numerically, then text)."""
        keys = sorted(range(self.size), key=lambda c: _value_key(self.values[c]))
        rank = np.empty(self.size, dtype=np.int64)
        rank[keys] = np.arange(self.size)
        return rank

    def decode(self, codes: np.ndarray) -> Any:
        """The values of ``codes`` as the column pandas makes of such values (NULL: missing)."""
        missing = self.index.get(None)
        text = np.dtype(object) != _text() and len(codes) > 0
        if not text or (missing is not None and bool((codes == missing).all())):
            # (no value, or missing values alone: pandas infers no text dtype for that column)
            return np.array(self.values, dtype=object)[codes]
        # taken from the few distinct values: pandas fills a text column from Python strings one by one
        return pd.Series(self.values, dtype=_text()).array.take(codes)


def _isna(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def _value_key(v: str | None) -> tuple[int, float, str]:
    if v is None:
        return (0, 0.0, "")
    try:
        return (1, float(v), v)
    except ValueError:
        return (2, 0.0, v)


class Distances:
    """``d[a, b]`` = height(LCA) / H of S_i codes a and b in the SA's hierarchy (SPEC §4.4), computed when first
    read and kept: noise reads a few pairs per group, while a matrix of every pair is values² floats (and
    values² LCA look-ups), 47.7 GiB at 80,000 values (issue 57). NaN for every pair without a hierarchy."""

    def __init__(self, tree: Any, values: Sequence[str]) -> None:
        self.tree = tree
        self.values = values
        self.height = (tree.height(tree.root) or 1) if tree is not None else 1
        self.known: dict[tuple[int, int], float] = {}

    def __getitem__(self, pair: tuple[Any, Any]) -> float:
        if self.tree is None:
            return float("nan")
        a, b = sorted((int(pair[0]), int(pair[1])))
        if a == b:
            return 0.0
        d = self.known.get((a, b))
        if d is None:
            d = self.known[(a, b)] = (
                self.tree.height(self.tree.lca(self.values[a], self.values[b])) / self.height
            )
        return d


def hierarchy_distances(db: Database, source: str, column: str, coder: Coder) -> Distances:
    """The distances of the SA's codes in its hierarchy (every value a leaf of it)."""

    tree = load(db, source, column)
    if tree is None:
        raise BadInput(
            f"--noise distance needs a hierarchy for the sensitive attribute {column!r}",
            f"import one: ldiv hierarchy import DB --table {source} --column {column} FILE.csv, "
            "or pass --noise random",
        )
    missing = [v for v in coder.values if v is None or v not in tree]
    if missing:
        raise BadInput(
            f"the hierarchy of {column!r} has no leaf {missing[0]!r} ({len(missing)} value(s) missing)",
            "add the value to the hierarchy file and import it again",
        )
    return Distances(tree, [str(v) for v in coder.values])


def distances_or_nan(db: Database, source: str, column: str, coder: Coder) -> Distances:
    """Random noise does not need a hierarchy; when there is one, its distances are still reported."""
    try:
        return hierarchy_distances(db, source, column, coder)
    except BadInput:
        return Distances(None, [])
