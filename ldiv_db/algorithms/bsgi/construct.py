"""A locality construction of BSGI's classes (``--refine exchange``, single SA, no individual column):
the same number of classes of l distinct SA values as the Max-l greedy (BSGI Theorem 1's maximum), grown
along a locality order instead of from seeds taken by row id.

Rows are walked in the locality order (QI codes read lexicographically, most costly to mix first), so
rows with identical QI vectors are adjacent. Each class starts at the first row not yet placed and takes,
from each of l − 1 further SA values, that value's first unplaced row at or after the start — the
nearest in the order, since every row before the start is already placed. Which values: with k' classes
still to form, every value with at least k' unplaced rows must go in (else it could not fill the
classes left); when there are l or more of them the class takes l of them, starting at the first row of
one of them. The rest of the class is the values whose next row is nearest.

Why the count is the maximum: let C(k') = Σ_v min(rem_v, k') (rows the remaining k' classes can use).
Theorem 1's k satisfies C(k) ≥ k·l, and a class that takes every saturated value (rem_v ≥ k') keeps
C(k' − 1) ≥ (k' − 1)·l (each saturated value loses one row but also one class; each other value taken
loses a row of the slack), so every one of the k classes can be completed. Rows left over are the
residual rows, incorporated as in the paper.
"""

from __future__ import annotations

import numpy as np

from ..shared.trees import IntArray


def construct(bucket: IntArray, rank: IntArray, l: int, k: int) -> IntArray:
    """row position → class 0..k-1, or −1 for residual rows; ``bucket``: the row's SA value, ``rank``:
    its position in the locality order (a permutation of 0..n-1)."""
    n = len(bucket)
    m = int(bucket.max()) + 1 if n else 0
    order = np.argsort(rank, kind="stable")
    by_value = np.lexsort((rank, bucket))
    bounds = np.searchsorted(bucket[by_value], np.arange(m + 1))
    queues = [rank[by_value[bounds[v] : bounds[v + 1]]].tolist() for v in range(m)]
    head = [0] * m
    rem = np.bincount(bucket, minlength=m).tolist()
    placed = [False] * n
    gid_at = [-1] * n
    start = 0
    for g in range(k):
        while placed[start]:
            start += 1
        heads = []  # (position of the value's next unplaced row, value)
        for v in range(m):
            q, h = queues[v], head[v]
            while h < len(q) and placed[q[h]]:
                h += 1
            head[v] = h
            if h < len(q):
                heads.append((q[h], v))
        left = k - g
        saturated = [hv for hv in heads if rem[hv[1]] >= left]
        if len(saturated) >= l:
            members = sorted(saturated)[:l]
        else:
            # the first unplaced row is the nearest of all, so the class starts there
            members = saturated + sorted(hv for hv in heads if rem[hv[1]] < left)[: l - len(saturated)]
        for p, v in members:
            placed[p] = True
            gid_at[p] = g
            rem[v] -= 1
    out = np.full(n, -1, dtype=np.int64)
    out[order] = np.array(gid_at, dtype=np.int64)
    return out
