"""The exchange search's other starts, built on a second thread while the paper's greedy runs.

With a single SA and no individual column, the locality construction (:mod:`.construct`) and the
feasible split (:mod:`.split`) form the class count of the Max-l schedule (BSGI Theorem 1's maximum),
which is known before the greedy starts. Neither reads anything the greedy writes: the fetched cells and
the cost model are only read, and each construction has its own engine. So :func:`begin` starts them in
a :class:`~ldiv_db.util.background.Background` thread and the greedy runs meanwhile; :func:`best_start` then
compares them with the greedy's classes by their IL sum (:func:`partition_cost`) and DM (:func:`dm`).
Numpy leaves the interpreter lock while it sorts and prices, so the two run on two cores (their times:
bench/README.md, "BSGI at scale").

Stopping: the thread checks its stop flag between the constructions and between the split's levels, so
Ctrl-C (:func:`ldiv_db.util.background.stop_all`) or an error of the greedy ends it within one level.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from ....util.background import Background
from ....util.memory import release_freed
from ...shared.lca import stable_order
from ...shared.schedule import Schedule
from ...shared.trees import IntArray, narrow_dtype
from ..greedy.cells import Cells, locality_keys, locality_orders
from ..greedy.cost import CostModel
from ..greedy.select import Engine, Result
from .construct import construct
from .exchange import Refiner
from .gathers import Members
from .split import split


class Stopped(Exception):
    """The starts were asked to stop (Ctrl-C, or the greedy failed)."""


@dataclass
class Starts:
    """The refiner of the fetched rows and the starts built beside the greedy."""

    refiner: Refiner
    locality: Result | None = None
    split_gid: np.ndarray | None = None
    split_order: np.ndarray | None = None  # the split tree's depth-first order of the rows
    split_il: int | float = 0
    split_members: Members | None = None  # the split's classes as the refiner holds them (its IL's sum)
    info: dict[str, Any] = dataclasses.field(default_factory=dict)

    def candidates(self, greedy: Result) -> list[tuple[str, Result]]:
        """The greedy's classes, then the locality construction and the split (when built; the split only
        with the greedy's class count, which with a schedule it always has)."""
        out = [("greedy", greedy)]
        if self.locality is not None:
            out.append(("locality", self.locality))
        if self.split_gid is not None and int(self.split_gid.max()) + 1 == greedy.classes:
            out.append(("split", dataclasses.replace(greedy, gid=self.split_gid, il_scaled=self.split_il)))
        return out


@dataclass(frozen=True)
class Threads:
    """How the starts run: ``count`` threads for the split's attempts (with ``wide``, one until it is set:
    beside the greedy, the other core is the greedy's); ``stop``, once set, ends the work (:class:`Stopped`)."""

    count: int = 1
    stop: threading.Event | None = None
    wide: threading.Event | None = None


def build(
    cells: Cells, cost: CostModel, order: list[int], orders: int, l: int, schedule: Schedule | None,
    criterion: str, threads: Threads = Threads(),
) -> Starts:  # fmt: skip
    """The refiner and (with ``schedule``: single SA, no individual column) the locality construction and
    the feasible split of ``schedule.classes`` classes, run as ``threads`` says."""
    stop = threads.stop
    wanted = locality_orders(order, orders)
    # the cells' own keys when they are of these orders (fast mode): no second copy of them
    keys = cells.key if cells.key.reshape(len(cells.key), -1).shape[1] == len(wanted) else None
    keys = locality_keys(cells.codes, wanted) if keys is None else keys
    out = Starts(refiner_for(cells, cost, keys))
    if schedule is None:
        return out
    row_key = np.repeat(keys.reshape(len(keys), -1)[:, 0], np.diff(np.append(cells.cell_start, cells.n)))
    rank = np.empty(cells.n, dtype=np.int64)
    rank[stable_order(row_key)] = np.arange(cells.n, dtype=np.int64)
    del row_key, keys
    _check(stop)
    out.locality = _locality(cells, cost, l, criterion, out.refiner, rank, schedule.classes)
    _check(stop)
    t0 = time.perf_counter()
    cut = split(out.refiner, rank, schedule.classes, stop=stop, threads=threads.count, wide=threads.wide)
    _check(stop)
    if cut is None:
        out.info = {"split": None}
        return out
    # the split's members and costs, computed for its IL, are also the exchange search's when it starts
    # from the split: held for :meth:`Refiner.run` rather than computed again there
    out.split_members = out.refiner.members(cut.gid)
    out.split_gid, out.split_il = cut.gid, out.split_members.il
    out.split_order = cut.order
    seconds = round(time.perf_counter() - t0, 4)
    out.info = {"split": {"levels": cut.levels, "near_prefix_cuts": cut.near, "seconds": seconds}}
    return out


def _locality(
    cells: Cells, cost: CostModel, l: int, criterion: str, refiner: Refiner, rank: np.ndarray, k: int
) -> Result:
    """The locality construction's classes (:mod:`.construct`), incorporated by an engine of their own —
    freed on return, before the split runs, with its stacks of the cells' codes."""
    chosen = construct(refiner.distinct[0], rank, l, k)
    engine = Engine(cells, cost, l, criterion=criterion)
    engine.adopt(chosen, *refiner.selection_states(chosen, k))
    return engine.run(None)


def begin(
    cells: Cells, cost: CostModel, order: list[int], orders: int, l: int, schedule: Schedule | None,
    criterion: str, threads: int = 1, wide: threading.Event | None = None,
) -> Background[Starts]:  # fmt: skip
    """:func:`build` on a thread of its own, started now; ``cancel()`` stops it. The split's attempts
    take ``threads`` threads once ``wide`` is set (by the caller, when its greedy has finished)."""
    stop = threading.Event()
    return Background(
        lambda: build(cells, cost, order, orders, l, schedule, criterion, Threads(threads, stop, wide)),
        name="ldiv-bsgi-starts",
        interrupt=stop.set,
    )


G = TypeVar("G")
# :func:`build`'s arguments before ``threads``: cells, cost, order, orders, l, schedule, criterion
BuildArgs = tuple[Cells, CostModel, list[int], int, int, Schedule | None, str]


def beside(group: Callable[[], G], build_args: BuildArgs, threads: int) -> tuple[G, Background[Starts]]:
    """``group()`` (the greedy) on this thread while :func:`build` (``build_args``) runs on a second; when
    the greedy ends its freed arrays are handed back and the split may take ``threads`` threads. Returns
    the greedy's value and the starts' :class:`Background` (its ``result()`` waits for them)."""
    wide = threading.Event()
    job = begin(*build_args, threads=threads, wide=wide)
    try:
        out = group()
    except BaseException:
        job.cancel()
        raise
    # before the split takes the greedy's core, and its memory beside the starts'
    release_freed(rows=build_args[0].n)
    wide.set()
    return out, job


def _check(stop: threading.Event | None) -> None:
    if stop is not None and stop.is_set():
        raise Stopped


def best_start(
    starts: list[tuple[str, Result]], greedy: Result, model: CostModel
) -> tuple[Result, dict[str, Any]]:
    """The exchange search's start: of the candidates with the greedy's class count and a DM not above
    the greedy's (so DM and CAVG stay the paper's or better), the lowest IL; equal ILs go to the earlier
    candidate (greedy, locality, split), so the choice is deterministic. The greedy always qualifies."""
    limit = dm(greedy.gid)
    fit = [(name, r) for name, r in starts if r.classes == greedy.classes and dm(r.gid) <= limit]
    name, start = min(fit, key=lambda c: c[1].il_scaled)
    info = {
        "start": name,
        "start_il": float(model.ncp(start.il_scaled)),
        "start_candidates": {n: float(model.ncp(r.il_scaled)) for n, r in starts},
    }
    return start, info


def partition_cost(refiner: Refiner, gid: IntArray) -> int | float:
    """Σ_G |G|·cost(G) of a partition (row position → class 0..k-1), in the cost model's scaled units."""
    return refiner.members(gid).il


def dm(gid: IntArray) -> int:
    """Σ_G |G|² of a partition (row position → class)."""
    return int((np.bincount(gid).astype(np.int64) ** 2).sum())


def refiner_for(cells: Cells, model: CostModel, keys: IntArray) -> Refiner:
    """The refiner of the fetched rows (row positions ordered by cell): a row's codes, distinct keys
    and locality keys are its cell's. Taxonomy node ids and flat codes are kept 32-bit where they fit
    (numeric codes, which may be raw values whose differences are taken, stay as they are); with the
    pricer's stacks narrowed alike (:class:`~.swaps.SwapPricer`) the refiner's per-row arrays take a
    third less memory."""
    rows = np.diff(np.append(cells.cell_start, cells.n))
    row_cell = np.repeat(np.arange(cells.n_cells, dtype=np.int64), rows)
    distinct = [cells.bucket[row_cell]] + [x[row_cell] for x in cells.extra_sa]
    if cells.individual is not None:
        distinct.append(cells.individual[row_cell])
    codes = [
        (c if a.kind == "numeric" else c.astype(narrow_dtype(c), copy=False))[row_cell]
        for a, c in zip(model.attrs, cells.codes, strict=True)
    ]
    return Refiner(model, codes, distinct, keys[row_cell])
