"""The row count of every cell's Cut_spec sub-partition, kept beside the search's Cut_spec images so
that DM's bound (SPEC §5.7: Σ over a partition's Cut_spec sub-partitions of their size squared) needs
no grouping per evaluation.

A cell's Cut_spec image (its leaf where the value is open, its cut node where it is locked) refines its
partition key, so the cells with one image are one sub-partition, wherever they are evaluated: its size
is a property of the image alone. Images change only when values are locked or unlocked, and only for
the locked value's cells — whose images never equal those of other cells (they lie under the locked
node, the others do not) — so a lock recounts the sizes of its cells alone (one hashing pass, no sort),
and the matching unlock puts the saved sizes back. The search evaluates several times per lock, so
this moves the grouping out of the evaluations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...taxonomy.arrays import IntArray
from ...util.lazy import library

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")


def sizes_of(spec: IntArray, cnt: IntArray) -> IntArray:
    """Per cell, the rows of all cells with its image (``spec``: the cells' images, ``cnt``: their rows)."""
    if spec.size == 0:
        return np.zeros(0, dtype=np.int64)
    codes, uniq = pd.factorize(spec)
    rows = np.bincount(codes, weights=cnt, minlength=uniq.size).astype(np.int64)  # exact below 2**53
    return rows[codes]


class SpecSizes:
    """The per-cell sizes of one search's cells (``size``), with the sizes each lock replaced."""

    def __init__(self, spec: IntArray, cnt: IntArray) -> None:
        self.size = sizes_of(spec, cnt)
        self._saved: list[IntArray] = []

    def lock(self, idx: IntArray, spec: IntArray, cnt: IntArray) -> None:
        """After the images of cells ``idx`` changed by a lock: their new sizes (the old ones saved)."""
        self._saved.append(self.size[idx])
        self.size[idx] = sizes_of(spec[idx], cnt[idx])

    def unlock(self, idx: IntArray) -> None:
        """After the matching unlock (locks are undone last first): the sizes before the lock."""
        self.size[idx] = self._saved.pop()

    def copy_for(self, first: IntArray) -> SpecSizes:
        """The sizes of a merged search (``first``: one cell of each merged cell, which shares its image
        with every cell it merges), with no locks of its own yet."""
        out = SpecSizes.__new__(SpecSizes)
        out.size = self.size[first]
        out._saved = []
        return out
