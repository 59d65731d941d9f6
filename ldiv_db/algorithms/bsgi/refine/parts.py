"""BSGI over a large table in parts: above :data:`PART_ROWS` rows the refined BSGI cuts the rows into parts
that together keep the Max-l schedule's class count (BSGI Theorem 1's maximum), then fetches, groups and
refines one part at a time, so the Python process holds one part's arrays at a time (a Spark driver at
10M rows). ``--refine none`` (the paper's algorithm) and the variants (several SAs, an individual column)
always group the whole table.

Where to cut. A part should be a slab of the locality order (the QI codes, most costly to mix first), as
the feasible split's top levels are: rows near each other in QI space stay together. SQL counts the rows
per code prefix of the order's leading QIs and SA bucket (``sql/bsgi/part_histogram.sql``); cutting the
order into equal slabs gives each bucket's *natural* rows per part (:func:`natural_counts`).

How many of each SA value (:func:`plan`). The schedule says how many classes ``c_v`` hold SA value ``v``
(its rows minus its residual) and that there are ``m`` classes, so ``c_v <= m`` and ``Σ c_v = l·m``. Part
``b`` gets ``m_b`` classes (``m`` spread evenly) and ``c_vb`` class slots of each value, chosen part after
part within ``lo_v = max(0, c_v' − (M − m_b)) <= c_vb <= hi_v = min(m_b, c_v')`` (``c_v'`` the slots and
``M`` the classes not yet given out), summing to ``l·m_b``, as near the natural counts as those bounds
allow. The bounds keep what is left feasible (no value in more classes than remain), and the fractional
share ``c_v'·m_b / M`` lies inside them with the right sum, so such a choice always exists. A part's
counts then admit ``m_b`` classes of ``l`` distinct values; no part can admit more (the parts' classes
together are a partition of the table), so the parts' own Max-l schedules form exactly ``m`` classes —
:func:`plan` checks that too. A value's residual rows follow its natural counts.

Which rows: within each SA bucket the rows are ranked by their QI codes in the locality order (then row
id) and cut at the plan's counts (``sql/bsgi/parts.sql``); where the plan keeps the natural counts, each
bucket's cut falls where the slab boundary does. Measured on the 1M-row amplified Adult (5 QIs, l = 4):
IL 222,599 whole, 216,696 in two parts, 219,398 in four (bench/README.md).
"""

from __future__ import annotations

import dataclasses
import functools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ....sqlgen.render import render
from ....util.lazy import library
from ....util.memory import release_freed, trimming
from ....util.progress import Progress
from ...base import AnonymizeRequest
from ...shared.schedule import Schedule, max_l_schedule
from ..greedy.cells import ORDERS
from ..greedy.select import Result
from . import starts
from .exchange import Refined
from .helper import workers

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

PART_ROWS = 1_000_000  # above this many rows the refined BSGI works part by part
# a part's starts built beside its greedy, as the whole table's are (:func:`.starts.beside`): the same
# release; the heaps are trimmed through the part (:func:`~ldiv_db.util.memory.trimming`), or the two
# threads' freed blocks stay resident and each later part's peak rises above the last's (decision 0029)
BESIDE = True
# a part's resident size above which its heaps' free pages go back to the system as it runs
TRIM_ABOVE = 896 * 2**20


@dataclass(frozen=True)
class Plan:
    """How many rows of each SA bucket every part takes, and the classes each part forms."""

    rows: np.ndarray  # (parts, buckets): rows of bucket v in part b
    classes: list[int]  # per part: its Max-l schedule's classes (they sum to the whole schedule's)

    @property
    def parts(self) -> int:
        return len(self.classes)

    def bounds(self) -> pd.DataFrame:
        """Per (bucket, part), the half-open range of the bucket's row ranks the part takes."""
        cum = np.cumsum(self.rows, axis=0)
        lo = cum - self.rows
        parts, buckets = self.rows.shape
        return pd.DataFrame(
            {
                "b": np.tile(np.arange(buckets, dtype=np.int64), parts),
                "part": np.repeat(np.arange(parts, dtype=np.int64), buckets),
                "lo": lo.ravel().astype(np.int64),
                "hi": cum.ravel().astype(np.int64),
            }
        )


def part_count(n: int, classes: int, part_rows: int | None = None) -> int:
    """Parts of about ``part_rows`` (default :data:`PART_ROWS`) rows for ``n`` rows, at most one a class."""
    return min(-(-n // (part_rows or PART_ROWS)), classes)


def plan(schedule: Schedule, part_rows: int | None = None, natural: np.ndarray | None = None) -> Plan | None:
    """The parts of a table of ``schedule.sizes`` rows per bucket, about ``part_rows`` rows each, or None
    when one part would do. ``natural`` (parts × buckets): the rows of each bucket that cutting the
    locality order into equal slabs would put in each part (:func:`natural_counts`); the plan keeps as
    close to it as the class count allows (default: every bucket spread evenly)."""
    sizes = np.asarray(schedule.sizes, dtype=np.int64)
    n, m, l = int(sizes.sum()), schedule.classes, schedule.l
    parts = part_count(n, m, part_rows)
    if parts < 2:
        return None
    per_part = np.array([m // parts + (1 if b < m % parts else 0) for b in range(parts)], dtype=np.int64)
    if natural is None:
        natural = per_part[:, None] * sizes[None, :] / m
    share = natural / np.maximum(natural.sum(axis=0), 1e-300)  # per bucket, its fraction in each part
    slots = sizes - np.asarray(schedule.residual, dtype=np.int64)  # c_v: the classes holding value v
    left, classes_left = slots.copy(), m
    rows = np.zeros((parts, len(sizes)), dtype=np.int64)
    for b, mb in enumerate(per_part.tolist()):
        take = left if b == parts - 1 else _share(left, classes_left, mb, l, share[b] * slots)
        if take is None:
            return None  # cannot happen (module docstring); the whole table is then grouped at once
        rows[b] = take
        left = left - take
        classes_left -= mb
    # each bucket's residual rows by its natural share (cumulative floors: every part ≥ 0, sums exact)
    residual = sizes - slots
    cum = np.floor(residual[None, :] * np.cumsum(share, axis=0)).astype(np.int64)
    cum[-1] = residual
    rows += np.diff(np.vstack([np.zeros(len(sizes), dtype=np.int64), cum]), axis=0)
    formed = [max_l_schedule(r.tolist(), l).classes for r in rows]
    if formed != per_part.tolist() or (rows < 0).any() or (rows.sum(axis=0) != sizes).any():
        return None  # cannot happen either
    return Plan(rows, formed)


def _share(left: np.ndarray, classes_left: int, mb: int, l: int, target: np.ndarray) -> np.ndarray | None:
    """Class slots per value for a part of ``mb`` classes out of the ``classes_left`` remaining: as near
    ``target`` as the bounds [lo, hi] allow (module docstring), summing to ``l·mb``."""
    lo = np.maximum(0, left - (classes_left - mb))
    hi = np.minimum(mb, left)
    total = float(target.sum())
    t = target * (l * mb / total) if total > 0 else left * (mb / classes_left)
    take: np.ndarray = np.clip(np.floor(t).astype(np.int64), lo, hi)
    short = l * mb - int(take.sum())
    while short:
        # one row more (fewer) for the values furthest below (above) their target, ties by bucket number
        room = np.flatnonzero(take < hi) if short > 0 else np.flatnonzero(take > lo)
        if not len(room):
            return None
        gap = (t - take)[room]
        pick = room[np.argsort(-gap if short > 0 else gap, kind="stable")[: abs(short)]]
        take[pick] += 1 if short > 0 else -1
        short = l * mb - int(take.sum())
    return take


PREFIX_CODES = 65_536  # the locality order's leading QIs whose code combinations the natural cut reads


def prefix_length(order: list[int], distinct: list[int]) -> int:
    """How many leading QIs of ``order`` have at most :data:`PREFIX_CODES` code combinations (≥ 1)."""
    k, combos = 0, 1
    while k < len(order) and combos * distinct[order[k]] <= PREFIX_CODES:
        combos *= distinct[order[k]]
        k += 1
    return max(k, 1)


def natural_counts(hist: pd.DataFrame, k: int, buckets: int, parts: int) -> np.ndarray:
    """(parts × buckets) rows per bucket in each of ``parts`` equal slabs of the locality order, from
    ``hist`` (``p1..pk, b, n``: rows per code prefix and bucket); a prefix that a slab boundary cuts is
    shared in proportion (its rows interleave on the later QIs)."""
    cols = [f"p{i}" for i in range(1, k + 1)]
    keys = hist[cols].to_numpy(dtype=np.int64)
    order = np.lexsort(keys.T[::-1])
    keys, b, n = keys[order], hist["b"].to_numpy(dtype=np.int64)[order], hist["n"].to_numpy(np.float64)[order]
    new = np.r_[True, (keys[1:] != keys[:-1]).any(axis=1)] if len(keys) else np.zeros(0, dtype=bool)
    prefix = np.cumsum(new) - 1
    counts = np.zeros((int(prefix[-1]) + 1 if len(prefix) else 0, buckets))
    np.add.at(counts, (prefix, b), n)
    size = counts.sum(axis=1)
    end = np.cumsum(size)
    start = end - size
    cuts = np.linspace(0.0, float(end[-1]) if len(end) else 0.0, parts + 1)
    overlap = np.clip(
        np.minimum(end[:, None], cuts[None, 1:]) - np.maximum(start[:, None], cuts[None, :-1]), 0, None
    )
    result: np.ndarray = (overlap / np.maximum(size, 1e-300)[:, None]).T @ counts
    return result


@dataclass
class Grouped:
    """BSGI's classes, whole or from parts: the (refined) result and what the release details report."""

    result: Result
    refined: Refined | None
    start: dict[str, Any]  # the refinement's chosen start (:func:`~.starts.best_start`)
    greedy: str  # which greedy ran
    waves: int | None  # its wave size (fast mode)
    fetch: float  # seconds fetching rows (parts: every part's fetch)
    greedy_seconds: float
    refine_seconds: float
    parts: list[dict[str, Any]] = field(default_factory=list)


def planned(db: Any, coded: Any, schedule: Schedule) -> Plan | None:
    """:func:`plan` for the coded table, near the slabs of its locality order (a histogram of the
    order's leading QIs per bucket, ``sql/bsgi/part_histogram.sql``), or None below two parts."""
    sizes = schedule.sizes
    parts = part_count(sum(sizes), schedule.classes)
    if parts < 2:
        return None
    k = prefix_length(coded.order, coded.distinct)
    prefix = [coded.qcols[i] for i in coded.order[:k]]
    hist = db.df(render("bsgi/part_histogram.sql", codes=coded.codes, prefix=prefix), bulk=True)
    return plan(schedule, natural=natural_counts(hist, k, len(sizes), parts))


def run_parts(
    alg: Any, request: AnonymizeRequest, coded: Any, l: int, window: int | None, cut: Plan, assignment: Any
) -> Grouped:
    """Cut the coded rows into ``cut``'s parts in SQL, then fetch, group and refine one part at a time
    (with :data:`BESIDE`, its starts built beside its greedy; its heaps trimmed above :data:`TRIM_ABOVE`),
    appending each part's classes to the table ``assignment`` (made here) as the part ends: no per-row
    array outlives its part."""
    db = request.db
    alg.new_assignment(db, assignment)
    bounds, table = db.work_table("bsgi_part_bounds"), db.work_table("bsgi_parts")
    db.run(render("bsgi/part_bounds.sql", target=bounds))
    db.insert_frame(bounds, cut.bounds())
    order = [coded.qcols[i] for i in coded.order]
    db.run(render("bsgi/parts.sql", target=table, codes=coded.codes, bounds=bounds, order=order))
    results: list[Result] = []
    refined: list[Refined] = []
    info: list[dict[str, Any]] = []
    fetch = greedy_s = refine_s = 0.0
    greedy, waves, offset = "", None, 0
    criterion = request.options["incorporate"]
    whole = request
    for b in range(cut.parts):
        request = dataclasses.replace(whole, progress=_PartProgress(whole.progress, b, cut.parts))
        t0 = time.perf_counter()
        prep = alg.fetch(request, coded, table, b)
        t1 = time.perf_counter()
        schedule = max_l_schedule(cut.rows[b].tolist(), l)
        build = (prep.cells, prep.cost, prep.order, ORDERS, l, schedule, criterion)
        # no statement until the next part's fetch: DuckDB's blocks go out; the heaps trimmed meanwhile
        with db.holding_little(), trimming(TRIM_ABOVE):
            if BESIDE:
                (result, greedy, waves), beside = starts.beside(
                    functools.partial(alg._group, request, prep, l, window, schedule), build, workers()
                )
                t2 = time.perf_counter()
                built = beside.result()
                del beside
            else:
                result, greedy, waves = alg._group(request, prep, l, window, schedule)
                t2 = time.perf_counter()
                built = starts.build(*build, starts.Threads(workers()))
            result, done, start = alg._refine(prep, result, built, request)
            del built
        fetch, greedy_s, refine_s = fetch + t1 - t0, greedy_s + t2 - t1, refine_s + time.perf_counter() - t2
        rid, gid = prep.cells.rid, result.gid.astype(np.int64) + offset
        offset += result.classes
        info.append(
            {
                "rows": int(prep.cells.n),
                "classes": result.classes,
                "start": start["start"],
                "start_il": start["start_il"],
                "il_before": float(coded.cost.ncp(done.il_before)),
                "il_after": float(coded.cost.ncp(done.il_after)),
            }
        )
        results.append(dataclasses.replace(result, gid=np.zeros(0, dtype=np.int64)))
        refined.append(dataclasses.replace(done, gid=np.zeros(0, dtype=np.int64)))
        rows = int(prep.cells.n)
        del prep, result, done
        release_freed(rows=rows)  # this part's arrays, before its classes are written and the next fetched
        alg.assign(db, assignment, rid, gid)
        del rid, gid
    merged = _merge(results)
    total = Refined(
        merged.gid,
        il_before=sum(r.il_before for r in refined),
        il_after=sum(r.il_after for r in refined),
        passes=max(r.passes for r in refined),
        moves=sum(r.moves for r in refined),
        seconds=sum(r.seconds for r in refined),
        threads=max(r.threads for r in refined),
        sideways=sum(r.sideways for r in refined),
    )
    start = {"start": "per part", "start_il": sum(p["start_il"] for p in info)}
    return Grouped(merged, total, start, greedy, waves, fetch, greedy_s, refine_s, info)


class _PartProgress(Progress):
    """A part's progress: the whole run's, its note prefixed with the part ("part 3/7: classes")."""

    def __init__(self, progress: Progress, part: int, parts: int) -> None:
        super().__init__(progress.label, quiet=True)
        self.progress, self.prefix = progress, f"part {part + 1}/{parts}: "

    def update(self, done: float, total: float | None = None, note: str = "") -> None:
        self.progress.update(done, total, self.prefix + note)

    def done(self, note: str = "") -> None:
        self.progress.done(note)


def _merge(results: list[Result]) -> Result:
    """The parts' results as one: counts summed (the class ids are in the assignment table)."""
    first = results[0]
    return dataclasses.replace(
        first,
        gid=np.zeros(0, dtype=np.int64),
        classes=sum(r.classes for r in results),
        residual_rows=sum(r.residual_rows for r in results),
        residual_repeats=sum(r.residual_repeats for r in results),
        individual_repeats=sum(r.individual_repeats for r in results),
        classes_incorporated=sum(r.classes_incorporated for r in results),
        picks=sum(r.picks for r in results),
        window_fallbacks=sum(r.window_fallbacks for r in results),
        compactions=sum(r.compactions for r in results),
        skipped_buckets=sum(r.skipped_buckets for r in results),
        stopped_early=any(r.stopped_early for r in results),
        il_scaled=sum(r.il_scaled for r in results),
        sizes=np.concatenate([r.sizes for r in results]),
    )
