"""Each partition's evaluation, kept by what it depends on: its node vector and which of its values are open.

In a full-subtree cut a partition with node vector X holds every cell under X's nodes, whatever the rest
of the cut, so its rows, its deletions and its cost depend on X alone; its lower bounds (SPEC §5.7 and
:mod:`.boxes`) see its cells' Cut_spec images, which depend on X and on which of X's values are open.
A search revisits the same partitions with the same open values again and again (at l = 2 on the
MACH2019 sample, 97 % of the partitions an evaluation touches were evaluated before), so
:meth:`~.search.Search._eval` groups the touched cells by partition key, answers those it knows from
here, and prices only the others.

Kept per partition: its cost, its lower bound, and whether its boxes' recursion has run (its values
are then in :class:`~.joint.Store`, and it joins :mod:`.joint`'s groups). A partition whose recursion
was left out by an evaluation's budget (``boxes.MAX_WORK``) is not kept: a later evaluation may compute
it, as it would without this memo, so the bounds and the visits are the same.
"""

from __future__ import annotations

import numpy as np

from ...taxonomy.arrays import IntArray

#: the most partitions kept (about 25 bytes each); beyond it the new ones are priced every time
LIMIT = 4_000_000
#: searches of histograms with more cells keep no memo: their evaluations touch thousands of partitions,
#: few of them again, and the grouping to look them up costs what it saves (the 1M Adult case)
MAX_CELLS = 200_000


class Known:
    """(cost, lower bound, recursion ran) by memo key (``boxes``' key: partition key · 2^d + open bits):
    the older ones in sorted arrays, the newest in a short sorted array of their own (rows of a buffer in
    the order they came), merged into the first when there are ``PENDING``; a whole evaluation is looked
    up at once in both."""

    PENDING = 4096

    def __init__(self) -> None:
        self.keys = np.zeros(0, dtype=np.int64)
        self.vals = np.zeros((0, 3), dtype=np.int64)
        self.nkeys = np.zeros(0, dtype=np.int64)  # the newest keys, sorted
        self.nrows = np.zeros(0, dtype=np.int64)  # each one's row of ``buf``
        self.buf = np.zeros((self.PENDING, 3), dtype=np.int64)

    def __len__(self) -> int:
        return int(self.keys.size + self.nkeys.size)

    def get(self, keys: IntArray) -> tuple[IntArray, IntArray, IntArray]:
        """(cost, lower bound, recursion ran) of every key; cost -1 where unknown."""
        out = np.full((keys.size, 3), -1, dtype=np.int64)
        if self.keys.size:
            pos = np.minimum(np.searchsorted(self.keys, keys), self.keys.size - 1)
            hit = np.flatnonzero(self.keys[pos] == keys)
            out[hit] = np.take(self.vals, pos[hit], axis=0)
        if self.nkeys.size:
            rest = np.flatnonzero(out[:, 0] < 0)
            if rest.size:
                ask = keys[rest]
                pos = np.minimum(np.searchsorted(self.nkeys, ask), self.nkeys.size - 1)
                found = np.flatnonzero(self.nkeys[pos] == ask)
                out[rest[found]] = np.take(self.buf, self.nrows[pos[found]], axis=0)
        return out[:, 0], out[:, 1], out[:, 2]

    def put(self, keys: IntArray, cost: IntArray, lb: IntArray, ran: IntArray) -> None:
        """Keep the figures of ``keys`` (none known yet), while fewer than ``LIMIT`` are kept; of a key given
        more than once in the batch, its last figures (as a dict's assignments in order would)."""
        if keys.size == 0 or len(self) >= LIMIT:
            return
        o = np.argsort(keys, kind="stable")  # sorted, so that keys inserted at one position keep their order
        ks = keys[o]
        last = np.ones(ks.size, dtype=bool)
        last[:-1] = ks[1:] != ks[:-1]  # the last of each run of equal keys, the batch's order kept in a run
        o, ks = o[last], ks[last]
        n, at = int(o.size), int(self.nkeys.size)
        if at + n > self.buf.shape[0]:
            self.buf = np.concatenate([self.buf, np.zeros((at + n, 3), dtype=np.int64)])
        self.buf[at : at + n] = np.stack([cost[o], lb[o], ran[o]], axis=1)  # row at + i holds ks[i]
        pos = np.searchsorted(self.nkeys, ks)
        self.nkeys = np.insert(self.nkeys, pos, ks)
        self.nrows = np.insert(self.nrows, pos, at + np.arange(n, dtype=np.int64))
        if self.nkeys.size >= self.PENDING:
            pos = np.searchsorted(self.keys, self.nkeys)  # merged into the sorted arrays, not sorted again
            self.keys = np.insert(self.keys, pos, self.nkeys)
            self.vals = np.insert(self.vals, pos, self.buf[self.nrows], axis=0)
            self.nkeys, self.nrows = self.nkeys[:0], self.nrows[:0]
