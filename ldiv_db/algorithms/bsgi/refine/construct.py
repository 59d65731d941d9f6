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
values that saturate at each class make a class O(l log m) for m SA values. Until the first value
saturates (on the issue's tables, all but the last few classes) a class is only the l least heads of one
heap, each replaced by its value's next row; that stretch runs as a tight loop over plain integers
(position and value packed into one), since all of it holds the interpreter lock the greedy needs beside
it. The rest follows the full rule from the state the stretch left.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterator
from operator import length_hint

import numpy as np

from ...shared.trees import IntArray


def construct(bucket: IntArray, rank: IntArray, l: int, k: int) -> IntArray:
    """row position → class 0..k-1, or −1 for residual rows; ``bucket``: the row's SA value, ``rank``:
    its position in the locality order (a permutation of 0..n-1)."""
    n = len(bucket)
    m = int(bucket.max()) + 1 if n else 0
    order = np.empty(n, dtype=np.int64)
    order[rank] = np.arange(n, dtype=np.int64)  # the row at each position: ``rank`` is a permutation
    along = bucket[order]
    # the positions by value, in order within each (a stable sort of narrow values is a radix sort)
    pos = np.argsort(along.astype(np.uint16) if m <= 1 << 16 else along, kind="stable")
    value = along[pos]
    del along
    bounds = np.searchsorted(value, np.arange(m + 1))
    shift = max(m - 1, 1).bit_length()
    # a value's rows as (position << shift | value), so the heaps compare plain ints; each queue ends in
    # (n << shift | value), above every row, which the class count never lets a class take
    packed = pos << shift | value
    del pos, value
    queues = [[*packed[bounds[v] : bounds[v + 1]].tolist(), n << shift | v] for v in range(m)]
    del packed
    rem = np.diff(bounds).tolist()
    placed, g = _unsaturated(queues, rem, l, k, shift)
    head = [len(q) - 1 - r for q, r in zip(queues, rem, strict=True)]  # each queue ends in its stop
    gid_at = _general(queues, rem, head, l, k, g, shift)
    out = np.full(n, -1, dtype=np.int64)
    first = np.array(placed, dtype=np.int64) >> shift
    if len(first) and int(first.max()) >= n:
        raise AssertionError("a class took past a value's last row")
    out[order[first]] = np.arange(len(first), dtype=np.int64) // l
    later = np.array(gid_at, dtype=np.int64).reshape(-1, 2)
    out[order[later[:, 0]]] = later[:, 1]
    return out


def _unsaturated(
    queues: list[list[int]], rem: list[int], l: int, k: int, shift: int
) -> tuple[list[int], int]:
    """The classes from the first on while no value is saturated: each takes the l values whose next rows
    come first. Returns the rows taken (class i's are the i-th l of them) and the next class; ``rem`` is
    left as the rows each value has still unplaced."""
    mask = (1 << shift) - 1
    live = [v for v, r in enumerate(rem) if r]
    if not live or min(k - rem[v] for v in live) <= 0:
        return [], 0
    its = {v: iter(queues[v]) for v in live}
    nexts = [its[v].__next__ if v in its else None for v in range(len(queues))]
    free = [nexts[v]() for v in live]  # type: ignore[misc]
    heapq.heapify(free)
    placed: list[int] = []
    g = 0
    pop, push, ext = heapq.heappop, heapq.heappush, placed.extend
    counts = [(-rem[v], v) for v in live]  # a max-heap of the values' unplaced rows, entries overstating
    heapq.heapify(counts)
    rows_left = sum(rem)
    while g < k:
        largest = _largest(counts, its, l)
        if len(largest) < l:
            break
        # a value saturates at class k − rem, and rem only falls as its rows are taken: no value does
        # before this bound, so the classes up to it are plain picks. l values keep a row up to it: the l
        # largest keep one for the l-th's count of classes, and while the rows left exceed l · the largest
        # count, l values have rows
        bound = min(k - largest[0], g + max(largest[-1], (rows_left - l * largest[0]) // l + 1))
        if bound <= g:
            break
        for _ in range(g, bound):
            taken = list(map(pop, [free] * l))
            ext(taken)
            for x in taken:
                push(free, nexts[x & mask]())  # type: ignore[misc]
        rows_left -= l * (bound - g)
        g = bound
    for v, it in its.items():
        rem[v] = length_hint(it)
    return placed, g


def _largest(counts: list[tuple[int, int]], its: dict[int, Iterator[int]], l: int) -> list[int]:
    """The l largest unplaced-row counts, descending (fewer where fewer values have rows left). ``counts``
    holds (−count, value) with counts as they were when pushed; a value's rows only fall, so an entry
    whose count is still exact at the top is the largest. Each correction follows a take, so a run's
    corrections cost O(n log m) in all."""
    out: list[tuple[int, int]] = []
    while counts and len(out) < l:
        was, v = counts[0]
        now = length_hint(its[v])
        if now == 0:
            heapq.heappop(counts)
        elif now != -was:
            heapq.heapreplace(counts, (-now, v))
        else:
            out.append(heapq.heappop(counts))
    for entry in out:
        heapq.heappush(counts, entry)
    return [-was for was, _ in out]


def _general(
    queues: list[list[int]], rem: list[int], head: list[int], l: int, k: int, g0: int, shift: int
) -> list[tuple[int, int]]:
    """Classes g0..k-1 from the state ``head``/``rem`` (the module's rule in full, with saturated values
    first). Returns (row, class) of the rows it places."""
    m = len(queues)
    mask = (1 << shift) - 1
    due: defaultdict[int, list[int]] = defaultdict(list)  # class → values that saturate there
    sat: list[int] = []  # the next unplaced row of saturated values
    free: list[int] = []  # the same of the others (entries go stale: checked when popped)
    is_sat = [False] * m
    for v in range(m):
        if rem[v] and k - rem[v] <= g0:
            is_sat[v] = True
            sat.append(queues[v][head[v]])
        elif rem[v]:
            free.append(queues[v][head[v]])
            due[k - rem[v]].append(v)
    heapq.heapify(sat)
    heapq.heapify(free)
    out: list[tuple[int, int]] = []
    for g in range(g0, k):
        for v in due.pop(g, ()):
            if not is_sat[v] and rem[v] and k - rem[v] == g:
                is_sat[v] = True
                heapq.heappush(sat, queues[v][head[v]])
        members = [heapq.heappop(sat) for _ in range(min(l, len(sat)))]
        while len(members) < l and free:
            x = heapq.heappop(free)
            v = x & mask
            if not is_sat[v] and x == queues[v][head[v]]:
                members.append(x)
        for x in members:
            v = x & mask
            out.append((x >> shift, g))
            head[v] += 1
            rem[v] -= 1
            if not rem[v]:
                continue
            if is_sat[v]:
                heapq.heappush(sat, queues[v][head[v]])
            else:
                heapq.heappush(free, queues[v][head[v]])
                due[k - rem[v]].append(v)
    return out
