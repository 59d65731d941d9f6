"""The compressed input of BSGI's greedy (:class:`Cells`) and the tie-key sentinel, shared by the
sequential engine (:mod:`.select`) and the fast mode's waves (:mod:`.waves`); the locality orders and
keys that sort the cells by their QI codes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...shared.trees import IntArray

DEAD = np.int64(2**62)  # added to a cell's tie key when it is empty or inadmissible
ORDERS = 4  # locality orders (rotations of the mix-cost order) whose windows a fast-mode pick prices


@dataclass
class Cells:
    """The fetched table, compressed. Row positions 0..n-1 are ordered by (cell, row id)."""

    rid: IntArray  # source rowid per row position
    cell_start: IntArray  # per cell: first row position (cells are contiguous, ascending)
    bucket: IntArray  # per cell: SA bucket (0 = the first-appearing value of the primary SA)
    key: IntArray  # per cell: rank of its QI codes in the locality order (equal codes, equal key)
    codes: list[IntArray]  # per attribute, per cell: QI code (leaf node id / value rank / flat code)
    extra_sa: list[IntArray] = field(default_factory=list)  # per secondary SA, per cell: value code
    individual: IntArray | None = None  # per cell: individual code

    @property
    def n(self) -> int:
        return len(self.rid)

    @property
    def n_cells(self) -> int:
        return len(self.cell_start)

    def row_codes(self) -> list[IntArray]:
        """Per QI, every row position's code (the cells' codes, repeated over their rows)."""
        rows = np.repeat(np.arange(self.n_cells, dtype=np.int64), np.diff(np.append(self.cell_start, self.n)))
        return [c[rows] for c in self.codes]


def locality_orders(order: Sequence[int], k: int) -> list[list[int]]:
    """Up to k rotations of the QI order (most costly to mix first): a fast-mode pick prices the window
    around its seed in each, so that QIs late in one order lead in another."""
    d = len(order)
    out: list[list[int]] = []
    for r in range(min(k, d)):
        shift = r * d // min(k, d)
        rotated = list(order[shift:]) + list(order[:shift])
        if rotated not in out:
            out.append(rotated)
    return out


def locality_keys(codes: Sequence[np.ndarray], orders: Sequence[Sequence[int]]) -> np.ndarray:
    """Per cell and order, a key that sorts the cells lexicographically by their QI codes in that order:
    the codes read as one mixed-radix number when it fits in 62 bits, else the dense rank (lexsort)."""
    n = len(codes[0]) if codes else 0
    radix = [int(c.max()) + 1 if n else 1 for c in codes]
    out = np.zeros((n, len(orders)), dtype=np.int64)
    for k, order in enumerate(orders):
        if math.prod(radix[i] for i in order) < 2**62 // max(n, 1):
            key = np.zeros(n, dtype=np.int64)
            for i in order:
                key = key * radix[i] + codes[i]
        else:
            idx = np.lexsort([codes[i] for i in reversed(order)])
            sorted_codes = np.stack([codes[i][idx] for i in order], axis=1)
            new = np.ones(n, dtype=bool)
            new[1:] = (sorted_codes[1:] != sorted_codes[:-1]).any(axis=1)
            key = np.empty(n, dtype=np.int64)
            key[idx] = np.cumsum(new) - 1
        out[:, k] = key
    return out[:, 0].copy() if len(orders) == 1 else out
