"""The compressed input of BSGI's greedy (:class:`Cells`) and the tie-key sentinel, shared by the
sequential engine (:mod:`.engine`) and the fast mode's waves (:mod:`.waves`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..shared.trees import IntArray

DEAD = np.int64(2**62)  # added to a cell's tie key when it is empty or inadmissible


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
