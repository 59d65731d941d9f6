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

Cost. A value's rows are taken in order (a class takes a value's first unplaced row), so each value keeps
a head. Value v is saturated from class k − rem_v on, and stays so (taking a row lowers rem_v and the
classes left alike), so two heaps by head position — saturated values, the others — and a list of the
values that saturate at each class make a class O(l log m) for m SA values, where scanning every
value's head made it O(m), all of it holding the interpreter lock the greedy needs beside it.
"""

from __future__ import annotations

import heapq
from collections import defaultdict

import numpy as np

from ...shared.trees import IntArray


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
    rem = [len(q) for q in queues]
    due: defaultdict[int, list[int]] = defaultdict(list)  # class → values that saturate there
    sat: list[tuple[int, int]] = []  # (position of the next unplaced row, value) of saturated values
    free: list[tuple[int, int]] = []  # the same of the others (entries go stale: checked when popped)
    is_sat = [False] * m
    for v in range(m):
        if rem[v] and k - rem[v] <= 0:
            is_sat[v] = True
            sat.append((queues[v][0], v))
        elif rem[v]:
            free.append((queues[v][0], v))
            due[k - rem[v]].append(v)
    heapq.heapify(sat)
    heapq.heapify(free)
    gid_at = [-1] * n
    for g in range(k):
        for v in due.pop(g, ()):
            if not is_sat[v] and rem[v] and k - rem[v] == g:
                is_sat[v] = True
                heapq.heappush(sat, (queues[v][head[v]], v))
        members = [heapq.heappop(sat) for _ in range(min(l, len(sat)))]
        while len(members) < l and free:
            p, v = heapq.heappop(free)
            if not is_sat[v] and p == queues[v][head[v]]:
                members.append((p, v))
        for p, v in members:
            gid_at[p] = g
            head[v] += 1
            rem[v] -= 1
            if not rem[v]:
                continue
            if is_sat[v]:
                heapq.heappush(sat, (queues[v][head[v]], v))
            else:
                heapq.heappush(free, (queues[v][head[v]], v))
                due[k - rem[v]].append(v)
    out = np.full(n, -1, dtype=np.int64)
    out[order] = np.array(gid_at, dtype=np.int64)
    return out
