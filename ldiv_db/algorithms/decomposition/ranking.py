"""Decomposition+ group forming, one batch of groups taking a row each from one bucket: the combos ranked
per group by (penalty, priority of the combo's next row) without a groups × combos matrix (SPEC §4.2, [D]).

A group's penalty for a combo counts the non-primary SAs on which the combo repeats a value the group
holds. A group holds fewer than l rows, so the penalty is 0 for every combo but those sharing one of its
few values. Groups holding the same values among the bucket's codes form a *cohort* and rank the combos
alike (one cohort where every value is new to the bucket, as with an SA of a value per row).

The rounds are those of :func:`ldiv_db.algorithms.decomposition.forming._take`: every group without a row
asks for its best combo with rows left, and a combo serves its askers in group order. A cohort that the
first combo with rows left does not penalize asks for that combo, so a round costs the rows it hands
out and the cohorts that combo penalizes, not the groups waiting; once one cohort is left, its groups
take the rows in its ranking's order (what its rounds would hand out) in one step. The combos come in
ranking order from a heap of the bucket's heads, so a batch reads the combos it reaches, not all.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ...errors import InternalError

IntArray = npt.NDArray[np.int64]


@dataclass
class Pool:
    """The rows group forming takes from, by combo: ``rows_sorted`` holds the row indices by (combo,
    priority), combo c's from ``start[c]`` on, ``counts[c]`` of them, of which ``ptr[c]`` are taken;
    ``prio`` is each row's priority, ``combo_codes`` each combo's non-primary codes, ``others`` each
    row's; ``members[g, j]`` group g's row at position j (-1: none yet), ``gid`` each row's group (-1:
    none yet)."""

    rows_sorted: IntArray
    start: IntArray
    counts: IntArray
    ptr: IntArray
    prio: IntArray
    combo_codes: Sequence[IntArray]
    others: Sequence[IntArray]
    members: IntArray
    gid: IntArray


class Heads:
    """The combos ``cb`` of one bucket that have rows left, in a heap by the priority of their next row:
    the order a batch ranks combos of equal penalty in. Entries of a combo whose head moved are stale and
    dropped when popped."""

    def __init__(self, cb: IntArray, pool: Pool) -> None:
        self.pool = pool
        left = pool.counts[cb] - pool.ptr[cb]
        live = cb[left > 0]
        keys = pool.prio[pool.rows_sorted[pool.start[live] + pool.ptr[live]]]
        self.heap = list(zip(keys.tolist(), live.tolist(), strict=True))
        heapq.heapify(self.heap)
        codes = [c[cb] for c in pool.combo_codes]
        self.values = [np.unique(c) for c in codes]  # each SA's codes among the bucket's combos, sorted

    def head(self, c: int) -> int | None:
        p = self.pool
        at = int(p.ptr[c])
        return int(p.prio[p.rows_sorted[p.start[c] + at]]) if at < p.counts[c] else None

    def pop(self) -> int | None:
        """The next combo in ranking order (None: no combo has rows left)."""
        while self.heap:
            key, c = heapq.heappop(self.heap)
            if self.head(c) == key:
                return int(c)
        return None

    def push(self, combos: Sequence[int]) -> None:
        for c in combos:
            key = self.head(c)
            if key is not None:
                heapq.heappush(self.heap, (key, c))


class _Snapshot:
    """The combos in the batch's ranking order, popped from :class:`Heads` as far as read, with the rows
    each has left; ``find(i)``: the first index >= i with rows left (path-compressed)."""

    def __init__(self, heads: Heads, pool: Pool) -> None:
        self.heads, self.pool = heads, pool
        self.combos: list[int] = []
        self.codes: list[tuple[int, ...]] = []
        self.rem: list[int] = []
        self.nxt: list[int] = []

    def find(self, i: int) -> int | None:
        nxt = self.nxt
        root = i
        while root < len(nxt) and nxt[root] != root:
            root = nxt[root]
        while i < len(nxt) and nxt[i] != i:
            nxt[i], i = root, nxt[i]
        if root < len(nxt):
            return root
        c = self.heads.pop()
        if c is None:
            return None
        self.combos.append(c)
        self.codes.append(tuple(int(cc[c]) for cc in self.pool.combo_codes))
        self.rem.append(int(self.pool.counts[c] - self.pool.ptr[c]))
        nxt.append(len(nxt))
        return root

    def take(self, i: int, k: int) -> None:
        self.rem[i] -= k
        if self.rem[i] == 0:
            self.nxt[i] = i + 1


class _Cohorts:
    """The batch's groups (indices into it) by cohort: ``members[k]`` ascending, ``served[k]`` of them
    served (always the earliest), ``held[k]`` the values per SA the cohort holds among the bucket's codes,
    ``holding[(sa, code)]`` the cohorts holding that value."""

    def __init__(self, gs: IntArray, j: int, heads: Heads, pool: Pool) -> None:
        parts = []
        for codes, present in zip(pool.others, heads.values, strict=True):
            h = codes[pool.members[gs, :j]]
            # present is sorted: a search per held value, not a pass over the bucket's codes per batch
            at = np.minimum(np.searchsorted(present, h), len(present) - 1)
            parts.append(np.sort(np.where(present[at] == h, h, -1), axis=1))
        sig = np.concatenate(parts, axis=1) if parts else np.full((len(gs), 1), -1)
        if (sig < 0).all():
            rows, of = sig[:1], np.zeros(len(gs), dtype=np.int64)
        else:
            rows, inv = np.unique(sig, axis=0, return_inverse=True)
            of = np.asarray(inv, dtype=np.int64).ravel()
        by = np.argsort(of, kind="stable")
        cut = np.searchsorted(of[by], np.arange(1, len(rows)))
        self.members = [m.tolist() for m in np.split(by, cut)]
        self.of = of.tolist()
        self.served = [0] * len(rows)
        self.held: list[list[frozenset[int]]] = []
        self.holding: dict[tuple[int, int], list[int]] = {}
        for k, row in enumerate(rows.tolist()):
            held = [frozenset(v for v in row[i * j : (i + 1) * j] if v >= 0) for i in range(len(parts))]
            self.held.append(held)
            for i, vs in enumerate(held):
                for v in vs:
                    self.holding.setdefault((i, v), []).append(k)
        self.level0 = [0] * len(rows)  # each cohort's place in the snapshot among its penalty-0 combos
        self.levels: list[dict[int, int]] = [{} for _ in rows]

    def waiting(self, k: int) -> int:
        return len(self.members[k]) - self.served[k]

    def penalty(self, k: int, codes: tuple[int, ...]) -> int:
        return sum(v in vs for v, vs in zip(codes, self.held[k], strict=True))

    def penalized(self, codes: tuple[int, ...]) -> set[int]:
        return {k for i, v in enumerate(codes) for k in self.holding.get((i, v), ())}


def _choose(co: _Cohorts, k: int, snap: _Snapshot, first: int) -> int:
    """Cohort k's best combo with rows left (a snapshot index): the first of penalty 0, else of 1, ..."""
    i = snap.find(max(co.level0[k], first)) if co.level0[k] >= 0 else None
    while i is not None:
        if co.penalty(k, snap.codes[i]) == 0:
            co.level0[k] = i
            return i
        i = snap.find(i + 1)
    co.level0[k] = -1
    for level in range(1, len(co.held[k]) + 1):
        i = snap.find(co.levels[k].get(level, 0))
        while i is not None:
            if co.penalty(k, snap.codes[i]) == level:
                co.levels[k][level] = i
                return i
            i = snap.find(i + 1)
    raise InternalError("a group found no row in the bucket its schedule takes from")


def take_ranked(gs: IntArray, j: int, heads: Heads, pool: Pool) -> int:
    """Groups ``gs`` (in group order, each holding ``j`` rows) take one row each of the bucket of
    ``heads``; writes ``gid``, ``members`` and ``ptr`` and returns the rounds."""
    co = _Cohorts(gs, j, heads, pool)
    snap = _Snapshot(heads, pool)
    events: list[tuple[int, list[int]]] = []  # (snapshot index, the groups served from it in order)
    alive = list(range(len(co.members)))
    rounds = 0
    while alive:
        rounds += 1
        if len(alive) == 1:
            _close(co, alive[0], snap, events)
            break
        first = snap.find(0)
        if first is None:
            raise InternalError("a bucket ran out of rows for its groups")
        _round(co, alive, snap, first, events)
        alive = [k for k in alive if co.waiting(k)]
    _apply(gs, j, snap, events, pool)
    heads.push(snap.combos)
    return rounds


def _round(
    co: _Cohorts, alive: list[int], snap: _Snapshot, first: int, events: list[tuple[int, list[int]]]
) -> None:
    """One round: every waiting group asks for its best combo, a combo serves its askers in group order."""
    asks: dict[int, list[int]] = {}
    for k in sorted(co.penalized(snap.codes[first])):
        if co.waiting(k):
            asks.setdefault(_choose(co, k, snap, first), []).append(k)
    elsewhere = {k for i, ks in asks.items() if i != first for k in ks}
    asks[first] = [k for k in alive if k not in elsewhere]
    for i, ks in asks.items():
        if not ks:
            continue
        r = snap.rem[i]
        if len(ks) == 1:
            k = ks[0]
            won = co.members[k][co.served[k] : co.served[k] + r]
            co.served[k] += len(won)
        else:
            pending = sorted(g for k in ks for g in co.members[k][co.served[k] : co.served[k] + r])
            won = pending[:r]
            for g in won:
                co.served[co.of[g]] += 1
        snap.take(i, len(won))
        events.append((i, won))


def _close(co: _Cohorts, k: int, snap: _Snapshot, events: list[tuple[int, list[int]]]) -> None:
    """The last cohort: its groups take the rows of its ranking in order, as its rounds would."""
    while co.waiting(k):
        first = snap.find(0)
        if first is None:
            raise InternalError("a bucket ran out of rows for its groups")
        i = _choose(co, k, snap, first)
        won = co.members[k][co.served[k] : co.served[k] + snap.rem[i]]
        co.served[k] += len(won)
        snap.take(i, len(won))
        events.append((i, won))


def _apply(gs: IntArray, j: int, snap: _Snapshot, events: list[tuple[int, list[int]]], pool: Pool) -> None:
    """The rows of the served groups: a combo's rows in priority order, to its groups in serving order."""
    if not events:
        return
    won = np.fromiter((g for _, w in events for g in w), dtype=np.int64)
    at = np.repeat(np.array([i for i, _ in events], dtype=np.int64), [len(w) for _, w in events])
    combos = np.asarray(snap.combos, dtype=np.int64)[at]
    order = np.argsort(combos, kind="stable")
    c = combos[order]
    rank = np.empty(len(c), dtype=np.int64)
    rank[order] = np.arange(len(c)) - np.searchsorted(c, c, side="left")
    rows = pool.rows_sorted[pool.start[combos] + pool.ptr[combos] + rank]
    pool.gid[rows] = gs[won]
    pool.members[gs[won], j] = rows
    np.add.at(pool.ptr, combos, 1)
