"""BSGI's Max-l schedule in closed form: which SA buckets give a row to which class (SPEC §2.1, §2.3).

Max-l re-sorts the buckets by size before every Select and takes one row from each of the l largest
(ties: first appearance of the SA value, SPEC §0.6 rule 2). That order depends only on the bucket sizes,
never on the QI values, so the whole selection schedule is computed up front from the m bucket sizes.

It is computed in *runs*: when the l-th largest bucket is strictly larger than the (l+1)-th by ``d``,
the next ``d`` iterations take the same l buckets in the same order (each loses one row per iteration,
so their relative order is kept and none of them falls below the (l+1)-th before the d-th iteration).
A tie at the boundary costs a one-iteration run. A heap keyed by ``(-size, first appearance)`` keeps
each run at O(l log m); the number of runs is at most the number of classes and on real data a few
hundred (Adult, l = 2..7).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Run:
    """``count`` consecutive Select iterations that take one row from each of ``buckets``, in this order
    (``buckets[0]`` is the largest bucket, which gives the seed row t1)."""

    count: int
    buckets: tuple[int, ...]


@dataclass(frozen=True)
class Schedule:
    """The Max-l selection schedule for bucket sizes ``sizes`` (bucket b = the b-th SA value in order
    of first appearance) and class size ``l``."""

    l: int
    sizes: tuple[int, ...]
    runs: tuple[Run, ...]
    residual: tuple[int, ...]  # rows left in each bucket after the selection

    @property
    def classes(self) -> int:
        return sum(r.count for r in self.runs)

    @property
    def residual_rows(self) -> int:
        return sum(self.residual)

    def classes_of(self) -> Iterator[tuple[int, ...]]:
        """The bucket order of every class, in selection order."""
        for run in self.runs:
            for _ in range(run.count):
                yield run.buckets


def max_l_schedule(sizes: Sequence[int], l: int) -> Schedule:
    """Simulate Max-l on the bucket sizes only (BSGI Fig. 1/2; SPEC §2.2 Select's bucket order)."""
    if l < 1:
        raise ValueError(f"l must be positive, got {l}")
    size = [int(s) for s in sizes]
    heap = [(-s, b) for b, s in enumerate(size) if s > 0]
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    counts: list[int] = []
    # one tuple per distinct bucket order, shared by its runs: a table that barely compresses has a run
    # per few classes
    orders: list[tuple[int, ...]] = []
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    while len(heap) >= l:
        top = [pop(heap) for _ in range(l)]
        boundary = -top[-1][0]
        below = -heap[0][0] if heap else 0
        count = boundary - below if boundary > below else 1
        order = tuple([b for _, b in top])
        buckets = seen.setdefault(order, order)
        if orders and orders[-1] is buckets:  # the same order as the run before (one tuple per order)
            counts[-1] += count
        else:
            counts.append(count)
            orders.append(buckets)
        for neg, b in top:
            left = -neg - count
            size[b] = left
            if left > 0:
                push(heap, (-left, b))
    runs = tuple(map(Run, counts, orders))
    return Schedule(l, tuple(int(s) for s in sizes), runs, tuple(size))
