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
2. position j = 2..l_pri, one bucket at a time: the groups taking their j-th row from that bucket, in
   batches, rank its combos by (penalty, priority of the combo's next row when the batch starts); in
   rounds, every group still without a row asks for its best combo with rows left, and a combo with
   fewer rows left than askers serves the earliest groups (:mod:`.ranking`: the penalties are sparse,
   a group holds fewer than l values, so no groups × combos matrix is made).

On the paper's example this is exactly the sequential algorithm (SPEC §4.6). In general it differs from
it only in which rows of a bucket a group gets, never in how many groups are formed or in the residual
counts: a group sees the rows later groups take at the same position, and all seeds are taken first.

**Residual rows** are kept back (gid -1). A kept-back row whose starvation penalty exceeds the threshold
joins the new group of this release minimizing (group already holds its primary value?, P(t, G), group
size, group id): groups lacking its primary value before the others (SPEC §4.3, as BSGI's Incorporate),
then the least penalty, then the smallest group [D]. It never joins a group an earlier release
published: the difference of the two releases would show its QIs (QID-table) and its SA values
(SA-table) exactly. When the release forms no new group, starved rows keep waiting. Starved rows are
placed in chunks that read the groups as they were when the chunk started (:mod:`.incorporation`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..shared.schedule import Schedule, max_l_schedule
from .incorporation import incorporate
from .ranking import Heads, Pool, take_ranked

IntArray = npt.NDArray[np.int64]
# a batch ranks the combos once, when it starts: its size (groups × combos of the bucket, a batch of
# the matrix the ranking once was) is part of which rows a group gets
MATRIX_CELLS = 4_000_000


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
) -> Forming:
    """Largest-l group forming on ``bucket`` (primary codes 0..m-1 in first-appearance order; rows in
    row-key order) with the diversity penalty on ``others`` (SPEC §4.2), then the starvation rule
    (SPEC §4.3): rows with ``starvation > threshold`` are placed into a new group of this release, the
    others kept back. An earlier release's groups are not among the groups: none receives a row, since a
    grown group would show the row's values in the difference of two releases."""
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
    members = np.full((groups, max(l, 1)), -1, dtype=np.int64)  # each group's row per position
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

        _seed(plan[:, 0], _grouped(by_prio, bucket, m), combo, n_combos, members, gid, ptr)
        pool = Pool(rows_sorted, start, counts, ptr, prio, combo_codes, others, members, gid)

        # 2. positions 2..l, one bucket at a time
        for j in range(1, l):
            for b, gs_all in _groups_by_bucket(plan[:, j], m):
                cb = combos_of[b]
                chunk = max(1, MATRIX_CELLS // max(len(cb), 1))
                heads = None if len(cb) == 1 else Heads(cb, pool)
                for c0 in range(0, len(gs_all), chunk):
                    rounds += _take(gs_all[c0 : c0 + chunk], j, cb, heads, pool)
    out = Forming(gid, groups, schedule, rounds=rounds)
    if threshold is not None:
        _incorporate(out, bucket, others, starv, threshold)
        out.starved_waiting = int(np.count_nonzero((gid < 0) & (starv > threshold)))
    return out


def _seed(
    first: IntArray,
    by_bucket: tuple[IntArray, IntArray, IntArray],
    combo: IntArray,
    n_combos: int,
    members: IntArray,
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
    members[gs, 0] = rows
    ptr += np.bincount(combo[rows], minlength=n_combos)


def _groups_by_bucket(col: IntArray, m: int) -> list[tuple[int, IntArray]]:
    """Per bucket in ``col`` (codes 0..m-1, ascending), the groups taking a row from it, ascending."""
    gs, start, counts = _grouped(np.arange(len(col), dtype=np.int64), col, m)
    return [(b, gs[start[b] : start[b] + counts[b]]) for b in np.flatnonzero(counts).tolist()]


def _take(gs: IntArray, j: int, cb: IntArray, heads: Heads | None, pool: Pool) -> int:
    """Groups ``gs`` (in group order) each take their ``j``-th row from the combos ``cb`` of one bucket
    (``heads``: their heap, None for a bucket of one combo), ranked by :func:`.ranking.take_ranked`. A
    bucket of one combo with rows for every group (every bucket where the SA is the only one) is that,
    without the ranking."""
    ptr = pool.ptr
    if heads is None:
        c = int(cb[0])
        if pool.counts[c] - ptr[c] >= len(gs):
            rows = pool.rows_sorted[pool.start[c] + ptr[c] + np.arange(len(gs))]
            pool.gid[rows] = gs
            pool.members[gs, j] = rows
            ptr[c] += len(gs)
            return 1
        heads = Heads(cb, pool)
    return take_ranked(gs, j, heads, pool)


def _incorporate(
    out: Forming,
    bucket: IntArray,
    others: Sequence[IntArray],
    starv: IntArray,
    threshold: int,
) -> None:
    """Place the starved rows into this release's new groups only (never a published group)."""
    gid = out.gid
    starved = np.nonzero((gid < 0) & (starv > threshold))[0]
    new = out.new_groups
    if not len(starved) or not new:
        return
    # most starved first, then the smallest row key
    starved = starved[np.lexsort((starved, -starv[starved]))]
    incorporate(gid, new, starved, bucket, others)
    out.incorporated = len(starved)
    out.incorporated_into_published = int(np.count_nonzero(gid[starved] >= new))
