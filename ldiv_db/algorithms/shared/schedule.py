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
from functools import cached_property

import numpy as np


@dataclass(frozen=True, slots=True)
class Run:
    """``count`` consecutive Select iterations that take one row from each of ``buckets``, in this order
    (``buckets[0]`` is the largest bucket, which gives the seed row t1)."""

    count: int
    buckets: tuple[int, ...]


@dataclass(frozen=True)
class Schedule:
    """The Max-l selection schedule for bucket sizes ``sizes`` (bucket b = the b-th SA value in order
    of first appearance) and class size ``l``.

    The runs are kept as two parallel columns, ``counts`` and ``order_ids`` (an index into the distinct
    bucket orders ``orders``): a table that barely compresses has a run per class, and a :class:`Run`
    object per class costs more than the schedule's own simulation. :attr:`runs` builds the objects
    when asked; :meth:`plan` expands the columns without them."""

    l: int
    sizes: tuple[int, ...]
    counts: tuple[int, ...]
    order_ids: tuple[int, ...]
    orders: tuple[tuple[int, ...], ...]  # the distinct bucket orders, by first use
    residual: tuple[int, ...]  # rows left in each bucket after the selection

    @cached_property
    def runs(self) -> tuple[Run, ...]:
        orders = self.orders
        return tuple(Run(c, orders[i]) for c, i in zip(self.counts, self.order_ids, strict=True))

    @property
    def classes(self) -> int:
        return sum(self.counts)

    def plan(self) -> np.ndarray:
        """The schedule expanded: row k is the bucket order of class k (``classes`` × ``l``, int64)."""
        if not self.counts:
            return np.zeros((0, self.l), dtype=np.int64)
        orders = np.asarray(self.orders, dtype=np.int64).reshape(len(self.orders), self.l)
        ids = np.asarray(self.order_ids, dtype=np.int64)
        return np.repeat(orders[ids], np.asarray(self.counts, dtype=np.int64), axis=0)

    @property
    def residual_rows(self) -> int:
        return sum(self.residual)

    def classes_of(self) -> Iterator[tuple[int, ...]]:
        """The bucket order of every class, in selection order."""
        for run in self.runs:
            for _ in range(run.count):
                yield run.buckets


HEAD_GAP = 64  # a head this far above the tie is simulated apart (below, an iteration is cheaper)
CYCLE_BUCKETS = 64  # above this many buckets the states are not compared (each comparison is O(buckets))


def max_l_schedule(sizes: Sequence[int], l: int) -> Schedule:
    """Simulate Max-l on the bucket sizes only (BSGI Fig. 1/2; SPEC §2.2 Select's bucket order).

    When the largest buckets tie (a table that barely compresses) it runs one iteration per class, and
    the state repeats up to a shift: the top (the buckets at least as large as the (l+1)-th) all lower
    by the same count, the other buckets unchanged. The iterations between two such states then repeat
    while the top stays above every other bucket, so the cycle's runs are repeated that often instead:
    the same runs as the iteration itself."""
    if l < 1:
        raise ValueError(f"l must be positive, got {l}")
    size = [int(s) for s in sizes]
    runs = _Runs()
    _iterate(size, l, runs, detect=len(size) <= CYCLE_BUCKETS)
    return Schedule(
        l, tuple(int(s) for s in sizes), tuple(runs.counts), tuple(runs.ids), tuple(runs.orders), tuple(size)
    )


class _Runs:
    """The runs so far, a run merged into the one before when it takes the same order; each run holds
    the index of its order among the distinct orders (a table that barely compresses has a run per few
    classes and a few dozen orders)."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.ids: list[int] = []
        self.orders: list[tuple[int, ...]] = []
        self.seen: dict[tuple[int, ...], int] = {}

    def _id(self, order: tuple[int, ...]) -> int:
        i = self.seen.setdefault(order, len(self.orders))
        if i == len(self.orders):
            self.orders.append(order)
        return i

    def add(self, count: int, order: tuple[int, ...]) -> None:
        i = self._id(order)
        if self.ids and self.ids[-1] == i:
            self.counts[-1] += count
        else:
            self.counts.append(count)
            self.ids.append(i)

    def mark(self) -> tuple[int, int]:
        return len(self.counts), self.counts[-1] if self.counts else 0

    def since(self, mark: tuple[int, int]) -> list[tuple[int, int]]:
        """The runs (count, order index) added after ``mark`` (the first one possibly merged into the
        run before it)."""
        n, last = mark
        head = self.counts[n - 1] - last if n else 0
        first = [(head, self.ids[n - 1])] if head else []
        return first + list(zip(self.counts[n:], self.ids[n:], strict=True))

    def repeat(self, cycle: list[tuple[int, int]], times: int) -> None:
        head_count, head = cycle[0]
        counts, ids = [c for c, _ in cycle[1:]], [i for _, i in cycle[1:]]
        for _ in range(times):
            if self.ids and self.ids[-1] == head:
                self.counts[-1] += head_count
            else:
                self.counts.append(head_count)
                self.ids.append(head)
            self.counts.extend(counts)
            self.ids.extend(ids)

    def extend_prefixed(self, sub: _Runs, prefix: tuple[int, ...]) -> None:
        """Append ``sub``'s runs, each order preceded by ``prefix`` (consecutive runs of ``sub`` take
        different orders, and so do they with the same prefix)."""
        if not sub.counts:
            return
        ids = [self._id(prefix + order) for order in sub.orders]
        self.add(sub.counts[0], self.orders[ids[sub.ids[0]]])
        self.counts.extend(sub.counts[1:])
        self.ids.extend([ids[i] for i in sub.ids[1:]])


def _iterate(size: list[int], l: int, runs: _Runs, *, detect: bool, limit: int | None = None) -> int:
    """The heap simulation: adds the runs to ``runs``, leaves the residual sizes in ``size`` and returns
    the number of classes; ``limit``: stop after that many."""
    heap = [(-s, b) for b, s in enumerate(size) if s > 0]
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    states: dict[tuple[int, ...], tuple[int, int]] = {}  # relative state -> runs.mark() when it was met
    # states are compared every `stride` iterations; a phase without a repeat doubles the stride, so a
    # table that does not cycle (yet) pays little for the comparison
    stride, budget, it, made = 1, 2 * len(size) + 16, 0, 0
    while len(heap) >= l and (limit is None or made < limit):
        it += 1
        if detect and len(heap) > l and it % stride == 0:
            # the top: every bucket at least as large as the (l+1)-th; sizes relative to that one,
            # the others' as they are (negative)
            low = -heapq.nsmallest(l + 1, heap)[-1][0]
            state = tuple(s - low if s >= low else -s - 1 for s in size)
            if state in states:  # the top lost `shift` rows per bucket, the others none
                cycle = runs.since(states[state])
                tops = sum(1 for s in size if s >= low)
                per = sum(c for c, _ in cycle)
                shift = per * l // tops
                rest = max((s for s in size if s < low), default=0)
                # cycles after which the top is still above every other bucket: until then none of
                # them is among the l + 1 largest, so every iteration repeats
                times = (low - rest - 1) // shift
                if limit is not None:
                    times = min(times, (limit - made) // per)
                if times:
                    runs.repeat(cycle, times)
                    made += times * per
                    size[:] = [s - times * shift if s >= low else s for s in size]
                    heap = [(-s, b) for b, s in enumerate(size) if s > 0]
                    heapq.heapify(heap)
                states.clear()
                # the next phase (a bucket joins the top) cycles with a short period of its own: look
                # for it at every iteration again
                stride = 1
                continue
            if len(states) >= budget:
                states.clear()
                stride *= 2
            states[state] = runs.mark()
        top = [pop(heap) for _ in range(l)]
        boundary = -top[-1][0]
        below = -heap[0][0] if heap else 0
        if boundary == below and _head_gap(top, boundary) >= HEAD_GAP:
            made += _head(size, l, top, runs, detect, None if limit is None else limit - made)
            heap = [(-s, b) for b, s in enumerate(size) if s > 0]
            heapq.heapify(heap)
            states.clear()
            stride = 1
            continue
        count = boundary - below if boundary > below else 1
        if limit is not None:
            count = min(count, limit - made)
        runs.add(count, tuple([b for _, b in top]))
        made += count
        for neg, b in top:
            left = -neg - count
            size[b] = left
            if left > 0:
                push(heap, (-left, b))
    return made


def _head_gap(top: list[tuple[int, int]], v: int) -> int:
    """How far the smallest of the buckets above ``v`` among ``top`` lies above it (0: none is)."""
    above = [-neg for neg, _ in top if -neg > v]
    return above[-1] - v if above else 0


def _head(
    size: list[int], l: int, top: list[tuple[int, int]], runs: _Runs, detect: bool, limit: int | None
) -> int:
    """A tie at the boundary (the l-th and the (l+1)-th largest equal, ``v``) under buckets strictly
    larger (the head, a < l of them: ``top`` is the l largest in order). The head loses one row per
    iteration and no other bucket grows, so for the next (smallest head bucket - v) iterations the head
    stays above every other bucket: each of them takes the head first, in its order (its buckets lose
    rows alike), then l - a buckets by Max-(l - a) on the others — simulated alone, its ties cycling
    without the head. Returns the classes made (at most ``limit``)."""
    v = -top[-1][0]
    head = [b for neg, b in top if -neg > v]
    gap = size[head[-1]] - v
    if limit is not None:
        gap = min(gap, limit)
    others = list(size)
    for b in head:
        others[b] = 0
    sub = _Runs()
    made = _iterate(others, l - len(head), sub, detect=detect, limit=gap)
    runs.extend_prefixed(sub, tuple(head))
    for b in head:
        others[b] = size[b] - made
    size[:] = others
    return made
