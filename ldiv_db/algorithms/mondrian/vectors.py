"""Mondrian's input as arrays: the distinct QI vectors of the rows (their ordinals and row counts) and
their SA value counts, as ``sql/mondrian/vectors.sql`` returns them, numbered in the order of their
ordinals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..shared.lca import stable_order

RANK_TABLE = 4  # a QI's integer ordinals are ranked by a table of at most 4 cells per vector (+ 2^16)


class Vectors:
    """The distinct QI vectors (ordinals, row counts) and their SA value counts, from ``vectors.sql``. The
    vectors are numbered 0.. in the order of their ordinals (QI 1 first), as a dense rank of the vectors
    in SQL would number them."""

    def __init__(self, frame: Mapping[str, Any], d: int, k: int, kinds: Sequence[str]) -> None:
        s, v = (np.asarray(frame[c], dtype=np.int64) for c in ("s", "v"))
        # per QI its distinct ordinals ascending and each cell's position among them: the vectors' order
        # is the order of these codes, QI by QI
        cols = [np.asarray(frame[f"o{i}"], dtype=np.float64) for i in range(1, d + 1)]
        self.values: list[np.ndarray] = []
        cell_codes: list[np.ndarray] = []
        for col in cols:
            values, codes = ranks(col)
            self.values.append(values)
            cell_codes.append(codes)
        # the cells in (vector, s, v) order: one integer of the codes, s and v sorts them (no two cells
        # share it), else a lexsort of the columns
        radix = [len(x) for x in self.values] + [k + 1, int(v.max()) + 1 if len(v) else 1]
        if float(np.prod(np.asarray(radix, dtype=np.float64))) < 2.0**62:
            key = np.zeros(len(s), dtype=np.int64)
            for part, m in zip([*cell_codes, s, v], radix, strict=True):
                key *= m
                key += part
            order = stable_order(key)
        else:
            order = np.lexsort((v, s, *cell_codes[::-1]))
        s, v = s.take(order), v.take(order)
        cell_codes = [c.take(order) for c in cell_codes]
        n = np.asarray(frame["n"], dtype=np.int64).take(order)
        starts = np.zeros(len(s), dtype=bool)
        starts[:1] = True
        for c in cell_codes:  # a vector starts where any of its codes differs from the cell before
            starts[1:] |= c[1:] != c[:-1]
        first = np.flatnonzero(starts)
        self.vid = np.arange(len(first), dtype=np.int64)
        index = np.cumsum(starts.astype(np.int64)) - 1  # each cell's vector
        at = order[first]
        self.ords = np.stack([col.take(at) for col in cols], axis=1).reshape(len(first), d)
        # one row per QI (its codes by vector): a round reads each vector's code on its partition's QI
        self.code_matrix = (
            np.vstack([c.take(first) for c in cell_codes]) if d else np.zeros((0, len(first)), dtype=np.int64)
        )
        self.codes = list(self.code_matrix)
        self.sa_vec: list[np.ndarray] = []
        self.sa_val: list[np.ndarray] = []
        self.sa_n: list[np.ndarray] = []
        for j in range(1, k + 1):
            mask = s == j
            self.sa_vec.append(index[mask])
            self.sa_val.append(v[mask])
            self.sa_n.append(n[mask])
        self.rows = np.bincount(self.sa_vec[0], weights=self.sa_n[0], minlength=len(self.vid)).astype(
            np.int64
        )
        self.kinds = kinds

    def leaf_codes(self) -> list[np.ndarray]:
        """Per QI each vector's code for :func:`~ldiv_db.algorithms.shared.lca.lca_labels`: a taxonomy's
        leaf node id (the ordinal), else the rank of the value."""
        return [
            self.ords[:, a].astype(np.int64) if kind == "hierarchy" else self.codes[a]
            for a, kind in enumerate(self.kinds)
        ]


def ranks(col: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A column's distinct values ascending and each entry's position among them (``np.unique`` and
    ``searchsorted``). Integers (as floats, below 2^53) in a range no wider than :data:`RANK_TABLE` per
    entry are ranked by a table of the values present, without a sort: taxonomy node ids, value ranks."""
    if len(col):
        lo, hi = float(col.min()), float(col.max())
        if lo > -(2.0**53) and hi < 2.0**53 and hi - lo < RANK_TABLE * len(col) + 2**16:
            whole = col.astype(np.int64)
            if (whole == col).all():
                at = whole - int(lo)
                present = np.zeros(int(hi - lo) + 1, dtype=bool)
                present[at] = True
                rank = np.cumsum(present) - 1
                return (np.flatnonzero(present) + int(lo)).astype(col.dtype), rank[at]
    values = np.unique(col)
    return values, np.searchsorted(values, col).astype(np.int64)
