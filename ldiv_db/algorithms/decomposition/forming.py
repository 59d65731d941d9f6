"""Decomposition+ group forming: largest-l on the primary SA with the diversity penalty, batched in
waves, and the starvation incorporation of kept-back rows (SPEC §4.2, §4.3; Das & Bhattacharyya 2012).

Everything here works on integer codes in numpy arrays; the controller fetches them with one query and
writes the assignment back with one insert.

**Schedule.** Largest-l re-sorts the primary buckets by size before every group and takes one row from
each of the ``l_pri`` largest (ties: first appearance). That order depends only on the bucket sizes, so
it is BSGI's closed-form Max-l schedule (:mod:`ldiv_db.algorithms.shared.schedule`): group g takes its j-th row from bucket
``plan[g, j]``. The per-bucket residual counts (SPEC §4.7, Table 7(a)) follow from it alone.

**Which rows (batched, [D]).** A row is described by its *combo*: its bucket and its codes on the
non-primary SAs; the diversity penalty ``P(t, G)`` (the number of non-primary SAs on which t repeats a
value already in G) depends only on the combo. Inside a combo, rows leave in priority order: the highest
starvation penalty first, then the smallest row key. The groups are built position by position:

1. seeds (position 1): every group takes, in group order, the next row of its first bucket in priority
   order (SPEC §4.2 "t1 = smallest row id"; with starvation: the most starved first, SPEC §4.3);
2. position j = 2..l_pri, one bucket at a time: every group taking its j-th row from that bucket prices
   all the bucket's combos at once (a groups × combos matrix of penalties, from per-group bitsets of the
   values already in the group) and ranks them by (penalty, priority of the combo's next row when the
   batch starts); in rounds, every group still without a row asks for its best combo with rows left, and
   a combo with fewer rows left than askers serves the earliest groups (each round exhausts a combo, so a
   bucket with C combos needs at most C + 1 rounds of O(groups) work).

On the paper's example this is exactly the sequential algorithm (SPEC §4.6). In general it differs from
it only in which rows of a bucket a group gets, never in how many groups are formed or in the residual
counts: a group sees the rows later groups take at the same position, and all seeds are taken first.

**Residual rows** are kept back (gid -1). A kept-back row whose starvation penalty exceeds the threshold
joins the new group of this release minimizing (group already holds its primary value?, P(t, G), group
size, group id): groups lacking its primary value before the others (SPEC §4.3, as BSGI's Incorporate),
then the least penalty, then the smallest group [D]. It never joins a group an earlier release
published: the difference of the two releases would show its QIs (QID-table) and its SA values
(SA-table) exactly. When the release forms no new group, starved rows keep waiting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..shared.schedule import Schedule, max_l_schedule

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
MATRIX_CELLS = 4_000_000  # groups × combos priced at once
INCORPORATE_CHUNK = 64  # starved rows placed between two updates of the group states


class ValueSets:
    """One bitset of value codes per group (the values of one SA a group already holds)."""

    def __init__(self, groups: int, n_values: int) -> None:
        self.words = max(1, (n_values + 63) // 64)
        self.bits = np.zeros((groups, self.words), dtype=np.uint64)

    def add(self, g: IntArray, codes: IntArray) -> None:
        """Add codes[i] to the set of group g[i] (repeated groups allowed)."""
        if len(g) == 0:
            return
        shift = (codes & 63).astype(np.uint64)
        np.bitwise_or.at(self.bits, (g, codes >> 6), np.left_shift(np.uint64(1), shift))

    def member(self, g: IntArray, codes: IntArray) -> BoolArray:
        """Whether codes (broadcast against g) are in the sets of groups g."""
        word = self.bits[g, codes >> 6]
        return np.asarray((word >> (codes & 63).astype(np.uint64)) & np.uint64(1), dtype=bool)

    def extend(self, other: ValueSets) -> ValueSets:
        out = ValueSets(0, 64 * max(self.words, other.words))
        width = out.words
        a = np.zeros((len(self.bits), width), dtype=np.uint64)
        a[:, : self.words] = self.bits
        b = np.zeros((len(other.bits), width), dtype=np.uint64)
        b[:, : other.words] = other.bits
        out.bits = np.vstack([a, b])
        return out


@dataclass
class Published:
    """Groups of earlier releases that a starved row may join: their primary and non-primary value sets
    (after noise, as published) and sizes."""

    primary: ValueSets
    others: list[ValueSets]
    sizes: IntArray

    @property
    def groups(self) -> int:
        return len(self.sizes)


@dataclass
class Forming:
    """The result: ``gid[i]`` is row i's group (0-based, new groups first, then published groups as
    ``new_groups + k``), or -1 when the row is kept back."""

    gid: IntArray
    new_groups: int
    schedule: Schedule
    incorporated: int = 0
    incorporated_into_published: int = 0
    rounds: int = 0
    starved_waiting: int = 0
    details: dict[str, int] = field(default_factory=dict)


def _combos(bucket: IntArray, others: Sequence[IntArray], n_values: Sequence[int], m: int) -> IntArray:
    """Dense combo ids of (bucket, non-primary codes), ordered by bucket first."""
    key = bucket.astype(np.int64)
    radix = m
    for codes, nv in zip(others, n_values, strict=True):
        if radix * max(nv, 1) >= 2**62:
            stacked = np.stack([bucket, *others], axis=1)
            _, inv = np.unique(stacked, axis=0, return_inverse=True)
            return np.asarray(inv, dtype=np.int64).ravel()
        key = key * max(nv, 1) + codes
        radix *= max(nv, 1)
    # bucket is the most significant digit, so combo ids sort by bucket
    if radix <= 4 * len(key) + 1024:
        # the rank of each key among the keys present, as np.unique's inverse, without sorting the rows
        present = np.bincount(key, minlength=radix) > 0
        return np.asarray((np.cumsum(present) - 1)[key], dtype=np.int64)
    _, inv = np.unique(key, return_inverse=True)
    return np.asarray(inv, dtype=np.int64).ravel()


def _stable_order(codes: IntArray, n_codes: int) -> IntArray:
    """``np.argsort(codes, kind="stable")`` for codes in 0..n_codes-1: numpy sorts 16-bit integers by
    radix, wider ones by merging."""
    if n_codes <= 2**16:
        return np.argsort(codes.astype(np.uint16), kind="stable").astype(np.int64)
    return np.argsort(codes, kind="stable")


def _grouped(rows: IntArray, codes: IntArray, n_codes: int) -> tuple[IntArray, IntArray, IntArray]:
    """``rows`` (a row order) grouped by ``codes[rows]``, keeping their order inside a code: the rows,
    each code's start among them and its count."""
    out = rows[_stable_order(codes[rows], n_codes)]
    counts = np.bincount(codes, minlength=n_codes)
    start = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return out, start, counts


def form_groups(
    bucket: IntArray,
    others: Sequence[IntArray],
    n_values: Sequence[int],
    l: int,
    *,
    starvation: IntArray | None = None,
    threshold: int | None = None,
    published: Published | None = None,
) -> Forming:
    """Largest-l group forming on ``bucket`` (primary codes 0..m-1 in first-appearance order; rows in
    row-key order) with the diversity penalty on ``others`` (SPEC §4.2), then the starvation rule
    (SPEC §4.3): rows with ``starvation > threshold`` are placed into a new group of this release, the
    others kept back. ``published`` (earlier groups) never receives a row: a grown group would show the
    row's values in the difference of two releases."""
    n = len(bucket)
    bucket = np.asarray(bucket, dtype=np.int64)
    others = [np.asarray(o, dtype=np.int64) for o in others]
    starv = np.zeros(n, dtype=np.int64) if starvation is None else np.asarray(starvation, dtype=np.int64)
    m = int(bucket.max()) + 1 if n else 0
    sizes = np.bincount(bucket, minlength=m) if n else np.zeros(0, dtype=np.int64)
    schedule = max_l_schedule(sizes.tolist(), l)
    groups = schedule.classes
    gid = np.full(n, -1, dtype=np.int64)
    # priority: the most starved first, then the smallest row key (= row index); by_prio lists the rows
    # in priority order (a stable sort keeps the row index order among equal starvation)
    by_prio = np.argsort(-starv, kind="stable") if n and starv.min() < starv.max() else np.arange(n)
    prio = np.empty(n, dtype=np.int64)
    prio[by_prio] = np.arange(n)
    sets = [ValueSets(groups, nv) for nv in n_values]
    rounds = 0
    if groups:
        plan = schedule.plan()
        combo = _combos(bucket, others, n_values, m)
        n_combos = int(combo.max()) + 1
        # the rows by (combo, priority)
        rows_sorted, start, counts = _grouped(by_prio, combo, n_combos)
        ptr = np.zeros(n_combos, dtype=np.int64)
        first = rows_sorted[start]
        combo_bucket = bucket[first]
        combo_codes = [o[first] for o in others]
        combos_of = np.split(np.arange(n_combos), np.searchsorted(combo_bucket, np.arange(1, m)))

        _seed(plan[:, 0], _grouped(by_prio, bucket, m), combo, n_combos, others, sets, gid, ptr)
        pool = _Pool(rows_sorted, start, counts, ptr, prio, combo_codes, others, sets, gid)

        # 2. positions 2..l, one bucket at a time
        for j in range(1, l):
            for b, gs_all in _groups_by_bucket(plan[:, j], m):
                cb = combos_of[b]
                chunk = max(1, MATRIX_CELLS // max(len(cb), 1))
                for c0 in range(0, len(gs_all), chunk):
                    rounds += _take(gs_all[c0 : c0 + chunk], cb, pool)
    out = Forming(gid, groups, schedule, rounds=rounds)
    if threshold is not None:
        _incorporate(out, bucket, others, starv, threshold, sets)
        out.starved_waiting = int(np.count_nonzero((gid < 0) & (starv > threshold)))
    return out


def _seed(
    first: IntArray,
    by_bucket: tuple[IntArray, IntArray, IntArray],
    combo: IntArray,
    n_combos: int,
    others: Sequence[IntArray],
    sets: Sequence[ValueSets],
    gid: IntArray,
    ptr: IntArray,
) -> None:
    """Step 1 of group forming: the seeds, the first bucket of every group, taken in priority order
    (``by_bucket``: the rows by bucket and priority, each bucket's start and count, :func:`_grouped`):
    the groups seeded from one bucket take its first rows, in group order."""
    order, start, counts = by_bucket
    gs = _stable_order(first, len(counts))  # the groups by first bucket, in group order within one
    b = first[gs]
    rank = np.arange(len(gs)) - np.searchsorted(b, b, side="left")
    rows = order[start[b] + rank]
    gid[rows] = gs
    ptr += np.bincount(combo[rows], minlength=n_combos)
    for s, codes in zip(sets, others, strict=True):
        s.add(gs, codes[rows])


def _groups_by_bucket(col: IntArray, m: int) -> list[tuple[int, IntArray]]:
    """Per bucket in ``col`` (codes 0..m-1, ascending), the groups taking a row from it, ascending."""
    gs, start, counts = _grouped(np.arange(len(col), dtype=np.int64), col, m)
    return [(b, gs[start[b] : start[b] + counts[b]]) for b in np.flatnonzero(counts).tolist()]


@dataclass
class _Pool:
    """The rows group forming takes from, by combo (:func:`_combos`): ``rows_sorted`` holds the row
    indices by (combo, priority), combo c's from ``start[c]`` on, ``counts[c]`` of them, of which
    ``ptr[c]`` are taken; ``prio`` is each row's priority, ``combo_codes`` each combo's non-primary codes,
    ``others`` each row's; ``sets`` the values each group holds, ``gid`` each row's group (-1: none yet)."""

    rows_sorted: IntArray
    start: IntArray
    counts: IntArray
    ptr: IntArray
    prio: IntArray
    combo_codes: Sequence[IntArray]
    others: Sequence[IntArray]
    sets: Sequence[ValueSets]
    gid: IntArray


def _take(gs: IntArray, cb: IntArray, pool: _Pool) -> int:
    """Groups ``gs`` (in group order) each take one row of the combos ``cb`` of one bucket.

    Every group ranks the combos once, by (penalty, priority of the combo's next row at the start of the
    batch); then, in rounds, every group still without a row asks for its best combo that has rows left,
    and a combo serves its askers in group order (the earliest groups first). A bucket of one combo
    with rows for every group (every bucket where the SA is the only one) is that, without the ranking."""
    ptr = pool.ptr
    remaining = pool.counts[cb] - ptr[cb]
    if len(cb) == 1 and remaining[0] >= len(gs):
        c = int(cb[0])
        rows = pool.rows_sorted[pool.start[c] + ptr[c] + np.arange(len(gs))]
        pool.gid[rows] = gs
        for s, codes in zip(pool.sets, pool.others, strict=True):
            s.add(gs, codes[rows])
        ptr[c] += len(gs)
        return 1
    return _take_ranked(gs, cb, pool, remaining)


def _take_ranked(gs: IntArray, cb: IntArray, pool: _Pool, remaining: IntArray) -> int:
    """:func:`_take` where groups choose among combos (``remaining``: each combo's rows left)."""
    counts, start, ptr, rows_sorted, prio = pool.counts, pool.start, pool.ptr, pool.rows_sorted, pool.prio
    sets, others, gid, n = pool.sets, pool.others, pool.gid, len(pool.gid)
    combo_codes = pool.combo_codes
    head = prio[rows_sorted[start[cb] + np.minimum(ptr[cb], counts[cb] - 1)]]
    by_head = np.argsort(np.where(remaining > 0, head, n + 1), kind="stable")
    cbo = cb[by_head]
    rem = remaining[by_head].copy()
    pen = np.zeros((len(gs), len(cbo)), dtype=np.int8)
    for s, codes in zip(sets, combo_codes, strict=True):
        pen += s.member(gs[:, None], codes[cbo][None, :])
    pen[:, rem <= 0] = np.iinfo(np.int8).max
    prefs = np.argsort(pen, axis=1, kind="stable")  # by penalty, then by head (the column order)
    del pen
    at = np.zeros(len(gs), dtype=np.int64)  # each group's position in its preference list
    taken = np.zeros(len(cbo), dtype=np.int64)
    todo = np.arange(len(gs))
    rounds = 0
    while len(todo):
        rounds += 1
        choice = prefs[todo, at[todo]]
        dry = rem[choice] <= 0
        while dry.any():
            at[todo[dry]] += 1
            choice[dry] = prefs[todo[dry], at[todo[dry]]]
            dry = rem[choice] <= 0
        order = np.argsort(choice, kind="stable")
        ch = choice[order]
        rank = np.arange(len(ch)) - np.searchsorted(ch, ch, side="left")
        win = rank < rem[ch]
        wi = todo[order[win]]
        wc = ch[win]
        rows = rows_sorted[start[cbo[wc]] + ptr[cbo[wc]] + taken[wc] + rank[win]]
        wg = gs[wi]
        gid[rows] = wg
        got = np.bincount(wc, minlength=len(cbo))
        taken += got
        rem -= got
        for s, codes in zip(sets, others, strict=True):
            s.add(wg, codes[rows])
        todo = np.sort(todo[order[~win]])
    ptr[cbo] += taken
    return rounds


def _incorporate(
    out: Forming,
    bucket: IntArray,
    others: Sequence[IntArray],
    starv: IntArray,
    threshold: int,
    sets: Sequence[ValueSets],
) -> None:
    """Place the starved rows into this release's new groups only (never a published group)."""
    gid = out.gid
    starved = np.nonzero((gid < 0) & (starv > threshold))[0]
    new = out.new_groups
    total = new
    if not len(starved) or not total:
        return
    m = int(bucket.max()) + 1
    prim = ValueSets(new, m)
    member = gid >= 0
    prim.add(gid[member], bucket[member])
    size = np.bincount(gid[member], minlength=new).astype(np.int64)
    all_sets = list(sets)
    k = len(others) + 1
    # most starved first, then the smallest row key
    starved = starved[np.lexsort((starved, -starv[starved]))]
    groups = np.arange(total)
    for c0 in range(0, len(starved), INCORPORATE_CHUNK):
        rows = starved[c0 : c0 + INCORPORATE_CHUNK]
        has = prim.member(groups[None, :], bucket[rows][:, None]).astype(np.int64)
        pen = np.zeros((len(rows), total), dtype=np.int64)
        for s, codes in zip(all_sets, others, strict=True):
            pen += s.member(groups[None, :], codes[rows][:, None])
        bound = np.int64(int(size.max()) + len(starved) + 1)
        key = (has * k + pen) * bound + size[None, :]
        best = np.argmin(key, axis=1)
        gid[rows] = best
        np.add.at(size, best, 1)
        prim.add(best, bucket[rows])
        for s, codes in zip(all_sets, others, strict=True):
            s.add(best, codes[rows])
    out.incorporated = len(starved)
    out.incorporated_into_published = int(np.count_nonzero(gid[starved] >= new))
