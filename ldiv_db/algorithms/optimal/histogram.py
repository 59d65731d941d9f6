"""The compressed histogram of the optimal search, fetched once (``sql/optimal/histogram.sql``), and its
coding for numpy: per QI and level, each cell's generalized node (dense codes) and the leaves under it
(ARX's domain share: the hierarchy's leaves, which may outnumber the values in the data)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ... import taxonomy
from ...errors import BadInput
from ...sqlgen.render import render
from ...util.lazy import library
from ..base import AnonymizeRequest, stored_hierarchies
from .judge import Groups, value_codes
from .lattice import Space

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")


@dataclass
class Coded:
    space: Space
    cover: list[list[np.ndarray]]  # per QI, per level: leaves under each cell's node
    domain: list[int]  # leaves per QI hierarchy
    values: list[list[str | None]]  # per SA: the values by code
    totals: list[np.ndarray]  # per SA: rows per value code
    cells: int


def _levels_of(
    h: taxonomy.Hierarchy, leaf_ids: np.ndarray
) -> tuple[list[np.ndarray], list[int], list[np.ndarray]]:
    """For the distinct leaf node ids present: per level, the dense code of each one's ancestor, the
    number of codes, and the leaves under each one's ancestor."""
    labels = [h.labels[int(i)] for i in leaf_ids]
    codes, sizes, covers = [], [], []
    for k in range(h.levels):
        at = [h.level_label(lab, k) for lab in labels]
        order: dict[str, int] = {}
        codes.append(
            np.fromiter((order.setdefault(a, len(order)) for a in at), dtype=np.int64, count=len(at))
        )
        sizes.append(len(order))
        covers.append(np.array([h.n_leaves(a) for a in at], dtype=np.int64))
    return codes, sizes, covers


def build(request: AnonymizeRequest, class_column: str | None) -> Coded:
    """Run the histogram query and code it (a QI without a hierarchy or a value missing from one is a
    :class:`BadInput` naming it)."""
    db, inputs = request.db, request.inputs
    hids, hierarchies = stored_hierarchies(request, "the optimal search picks a hierarchy level for every QI")
    klass = inputs.table.column(class_column) if class_column else None
    hist = db.df(
        render(
            "optimal/histogram.sql",
            {"hids": hids},
            source=inputs.table.ref,
            qi=[c.ident for c in inputs.qi],
            sa=[c.ident for c in inputs.sa],
            klass=klass.ident if klass is not None else None,
        ),
        bulk=True,
    )
    for i, col in enumerate(inputs.qi, 1):
        if hist[f"l{i}"].isna().any():
            n, sample = taxonomy.missing_values(db, inputs.table, col, hids[i - 1])
            raise BadInput(
                f"{n} value(s) of {col.name!r} are not leaves of its hierarchy: {', '.join(sample)}",
                "re-import the hierarchy with a row for every data value",
            )
    return code(hist, hierarchies, len(inputs.sa), klass is not None)


def code(hist: pd.DataFrame, hierarchies: Sequence[taxonomy.Hierarchy], n_sa: int, with_class: bool) -> Coded:
    """Code the histogram (columns l1..ld: leaf node ids, s1..sm, k, n; in any order): cells with one leaf
    vector become one row of the base partition. With one SA and no class the cells are the base's
    (row, value, rows) triplets as they come; otherwise their counts are summed into dense matrices."""
    count = hist["n"].to_numpy(dtype=np.int64)
    leaves = [hist[f"l{i}"].to_numpy(dtype=np.int64) for i in range(1, len(hierarchies) + 1)]
    row_of, first = _rows(leaves, len(hist))
    n_rows = len(first)
    codes, sizes, cover = [], [], []
    for h, leaf in zip(hierarchies, leaves, strict=True):
        ids, inv = _small_unique(leaf[first])
        lv_codes, lv_sizes, lv_cover = _levels_of(h, ids)
        codes.append([c.astype(np.int32)[inv] for c in lv_codes])
        sizes.append(lv_sizes)
        cover.append([c[inv] for c in lv_cover])
    sa_codes, values, totals = [], [], []
    for s in range(1, n_sa + 1):
        c, vals = value_codes(hist[f"s{s}"])
        sa_codes.append(c)
        values.append(vals)
        totals.append(np.bincount(c, weights=count, minlength=len(vals)).astype(np.int64))
    size = np.bincount(row_of, weights=count, minlength=n_rows).astype(np.int64)
    rep = np.arange(n_rows, dtype=np.int64)
    if n_sa == 1 and not with_class:  # (row, value) is unique: the histogram's own cells
        cells = ((row_of, sa_codes[0], count.astype(np.float64)),)
        base = Groups(rep=rep, size=size, cells=cells, widths=(len(values[0]),))
    else:
        klass = None
        if with_class:
            kc, kv = value_codes(hist["k"])
            klass = _matrix(row_of, kc, count, n_rows, len(kv))
        dense = tuple(
            _matrix(row_of, c, count, n_rows, len(v)) for c, v in zip(sa_codes, values, strict=True)
        )
        base = Groups(rep=rep, size=size, dense=dense, klass=klass)
    return Coded(
        space=Space(codes=codes, sizes=sizes, base=base),
        cover=cover,
        domain=[h.domain_size for h in hierarchies],
        values=values,
        totals=totals,
        cells=len(hist),
    )


def _rows(leaves: Sequence[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """The row (distinct leaf vector) of every histogram cell, numbered in the vectors' order, and the
    first cell of every row."""
    key = np.zeros(n, dtype=np.int64)
    span = 1
    for leaf in leaves:
        m = int(leaf.max()) + 1 if n else 1
        if span * m >= 1 << 62:
            key = np.asarray(pd.factorize(key, sort=False)[0], dtype=np.int64)
            span = int(key.max()) + 1
        key = key * m + leaf
        span *= m
    # rows in the order of their leaf vectors: the search's gathers and scatters then walk memory in order
    row_of = np.asarray(pd.factorize(key, sort=True)[0], dtype=np.int64)
    n_rows = int(row_of.max()) + 1 if n else 0
    first = np.empty(n_rows, dtype=np.int64)
    first[row_of[::-1]] = np.arange(n - 1, -1, -1, dtype=np.int64)  # the last write per row is its first cell
    return row_of, first


def _small_unique(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of ``ids`` (small non-negative integers: node ids) and each one's index
    among them, by a lookup table over their range (no sort)."""
    top = int(ids.max()) + 1 if len(ids) else 0
    seen = np.zeros(top, dtype=bool)
    seen[ids] = True
    uniq = np.flatnonzero(seen)
    rank = np.zeros(top, dtype=np.int64)
    rank[uniq] = np.arange(len(uniq))
    return uniq, rank[ids]


def _matrix(row_of: np.ndarray, code: np.ndarray, count: np.ndarray, n_rows: int, width: int) -> np.ndarray:
    """Rows per (histogram row, code)."""
    flat = np.bincount(row_of * width + code, weights=count, minlength=n_rows * width)
    return flat.astype(np.int64).reshape(n_rows, width)
