"""The random first picks of a seeded BSGI (``--seed``, BSGI Fig. 2 line 4): the k-th remaining row of a
bucket in row-id order, found through counts of the remaining rows kept per block of the bucket's seed
queue, so a pick costs a block and the blocks' counts, not the bucket (a scan of the bucket per pick made a seeded run quadratic
in the largest bucket; history, "BSGI at scale", Round 18).

The greedy's state calls :meth:`SeedBlocks.taken` and :meth:`SeedBlocks.returned` wherever a row changes
hands, so the counts always equal the rows not taken.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....util.arrays import concat_ranges
from ...shared.trees import IntArray

BLOCK = 64  # rows of a bucket's seed queue per counted block


class SeedBlocks:
    """Per bucket, its seed queue (row positions in row-id order) cut into blocks of :data:`BLOCK`, with the
    number of rows of each block not taken."""

    def __init__(self, queue: np.ndarray[Any, Any], bounds: IntArray, n: int, block: int = BLOCK) -> None:
        """``queue``: every row position, by bucket then row id; bucket b's rows are
        ``queue[bounds[b]:bounds[b + 1]]``; ``n``: the rows; ``block``: rows per counted block."""
        self.block = block
        sizes = np.diff(bounds).astype(np.int64)
        per = (sizes + block - 1) // block
        self._first = np.concatenate(([0], np.cumsum(per))).astype(np.int64)  # bucket b: its first block
        self._queue, self._bounds = queue, bounds.astype(np.int64)
        bucket = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        local = np.arange(len(queue), dtype=np.int64) - self._bounds[bucket]
        # row position -> its block (32-bit: fewer blocks than rows)
        self._block: np.ndarray[Any, np.dtype[np.signedinteger[Any]]] = np.empty(
            n, dtype=np.int32 if n < 2**31 else np.int64
        )
        self._block[queue] = self._first[bucket] + local // block
        self.live = np.bincount(self._block, minlength=int(self._first[-1])).astype(np.int64)

    def taken(self, rows: IntArray | int) -> None:
        """Rows (positions, each not taken before) taken: one, or an array of them."""
        if np.ndim(rows) == 0:
            self.live[self._block[rows]] -= 1
        else:
            np.subtract.at(self.live, self._block[rows], 1)

    def returned(self, row: int) -> None:
        """A taken row given back."""
        self.live[self._block[row]] += 1

    def remaining(self, b: int) -> int:
        """Rows of bucket b not taken."""
        return int(self.live[self._first[b] : self._first[b + 1]].sum())

    def kth(self, b: int, k: int, taken: np.ndarray) -> int:
        """The position of bucket b's k-th (0-based) row not taken, in row-id order; ``taken``: the
        greedy's flags, which the counts follow."""
        cum = np.cumsum(self.live[self._first[b] : self._first[b + 1]])
        j = int(np.searchsorted(cum, k, side="right"))
        before = int(cum[j - 1]) if j else 0
        lo = int(self._bounds[b]) + j * self.block
        rows = self._queue[lo : min(lo + self.block, int(self._bounds[b + 1]))]
        return int(rows[np.flatnonzero(~taken[rows])[k - before]])

    def kth_many(self, b: int, ks: IntArray, taken: np.ndarray) -> IntArray:
        """:meth:`kth` of each of ``ks`` (0-based ranks among bucket b's rows not taken, in any order), read
        from the blocks that hold them only."""
        cum = np.cumsum(self.live[self._first[b] : self._first[b + 1]])
        j = np.searchsorted(cum, ks, side="right")
        before = np.where(j > 0, cum[np.maximum(j - 1, 0)], 0)
        blocks = np.unique(j)
        lo = int(self._bounds[b]) + blocks * self.block
        hi = np.minimum(lo + self.block, int(self._bounds[b + 1]))
        sizes = hi - lo
        rows = self._queue[concat_ranges(lo, sizes)]
        alive = ~taken[rows]
        left, left_block = rows[alive], np.repeat(blocks, sizes)[alive]
        start = np.searchsorted(left_block, blocks)  # each block's first row left, in ``left``
        found: IntArray = left[start[np.searchsorted(blocks, j)] + (ks - before)].astype(np.int64)
        return found
