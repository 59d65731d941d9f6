"""BSGI's Select/Group and Incorporate steps over arrays fetched once (SPEC §2.2; Ye et al. Figs. 1–3).

Why Python/numpy and not SQL: the greedy is sequential — each pick depends on the rows earlier picks
removed and on the class built so far — and one query per pick (tens of
thousands of picks on Adult) cannot meet the benchmarks. SQL prepares everything set-based (codes, buckets in first-appearance order,
the compressed cells, the locality order; ``sql/bsgi/``); the Max-l schedule is closed-form
(:mod:`~ldiv_db.algorithms.shared.schedule`); this module makes the picks, each with a handful of vectorized numpy operations
over the candidate cells of one bucket.

Cells: rows of one bucket with identical QI codes (and, in the variants, identical secondary SA values
and individual) are interchangeable for the greedy; among them the smallest row id goes first (SPEC
§0.6), so a cell is a queue of row ids and the greedy compares cells. A cell's *key* is the rank of its
QI codes in a lexicographic locality order; every bucket keeps its live cells sorted by key.

Pricing a pick: for the class state (per QI: LCA node / [lo, hi] / flat code) one cost row per QI over
that QI's code domain (cached per state), concatenated into one table; a bucket stores its cells' codes
as a matrix of offsets into that table, so the cost of every candidate is one gather and one row sum.
QIs with large domains (> ``TABLE_LIMIT`` codes) are priced per candidate instead.

Exact mode (``window=None``): every pick scans all live cells of its bucket — Fig. 2 with the SPEC tie
rules (least IL, then smallest row id), O(n · cells per bucket). Fast mode (``window=W``): a pick scans
the 2W live cells around the seed row's key in the bucket (the whole bucket when it has at most 2W live
cells, so small inputs are exact), O(n · W).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...shared.schedule import Schedule
from ...shared.trees import IntArray
from .cells import DEAD, Cells
from .cost import CostArray
from .incorporate import incorporate
from .state import TABLE_LIMIT, Bucket, GreedyState
from .waves import select_waves

__all__ = ["DEAD", "TABLE_LIMIT", "Cells", "Engine", "Result"]


@dataclass
class Result:
    gid: IntArray  # per row position: class id (0-based, in selection order)
    classes: int
    residual_rows: int
    residual_repeats: int  # residual rows placed in a class that already held one of their SA values
    individual_repeats: int  # residual rows placed in a class that already held their individual
    classes_incorporated: int  # classes that received at least one residual row
    picks: int
    window_fallbacks: int  # picks whose window held no live (admissible) cell
    compactions: int
    skipped_buckets: int  # variants: buckets skipped for lack of an admissible row
    stopped_early: bool  # variants: selection stopped with >= l non-empty buckets left
    il_scaled: int | float  # Σ_classes |e|·cost(e), in the cost model's units
    sizes: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))


class Engine(GreedyState):
    """The greedy over :class:`Cells` with a :class:`CostModel` (see the module docstring)."""

    def _pick(
        self, b: int, key: int, state: list[int], banned: tuple[list[int], list[list[int]]] | None = None
    ) -> int | None:
        """argmin over the bucket's live (admissible) cells of (IL(e ∪ t), row id): within the window
        around ``key`` in fast mode; a window without a live cell compacts the bucket and, if still
        nothing qualifies, the whole bucket is scanned."""
        w = self.window
        whole = w is None
        for attempt in range(3):
            bk = self.buckets[b]
            size = len(bk.cells)
            if whole or size <= 2 * w:  # type: ignore[operator]
                lo, hi = 0, size
            else:
                assert w is not None
                pos = int(np.searchsorted(bk.keys, key))
                lo = min(max(pos - w, 0), size - 2 * w)
                hi = lo + 2 * w
            hp = bk.hp[lo:hi]
            if banned is not None:
                hp = np.where(_banned(bk, lo, hi, banned), DEAD, hp)
            j = self._best(self._costs(bk, lo, hi, state), hp)
            if j is not None:
                if attempt:
                    self.fallbacks += 1
                return int(bk.cells[lo + j])
            if lo == 0 and hi == size:
                return None
            if attempt == 0 and bk.dead:
                self._compact(b)  # then the same window again, over live cells only
            else:
                whole = True
        return None

    # ------------------------------------------------------------------ select
    def select(self, schedule: Schedule) -> None:
        """Fig. 1 lines 4–5 with the precomputed Max-l schedule (single SA, no individuals)."""
        gid, key_of = self.gid, self.key1
        k = len(self.class_size)
        total = schedule.classes
        for run in schedule.runs:
            first, rest = run.buckets[0], run.buckets[1:]
            for _ in range(run.count):
                for b in rest:
                    self._maybe_compact(b)
                cell = self._seed(first)
                gid[self.take(cell)] = k
                state = self._initial_state(cell)
                key = int(key_of[cell])
                for b in rest:
                    c = self._pick(b, key, state)
                    assert c is not None
                    gid[self.take(c)] = k
                    self._add(state, c)
                self.picks += len(rest)
                self._close(state)
                k += 1
                if self.progress is not None and not k % 4096:
                    self.progress(k, total)

    def select_variant(self) -> None:
        """Fig. 1/2 with the variants of SPEC §2.4: a candidate must not share the class's individual
        and must differ from every row of the class on every secondary SA. A bucket without an
        admissible row is skipped for the next one in size order; when fewer than l buckets can
        contribute, selection stops [D]."""
        gid, key_of = self.gid, self.key1
        individual = self.cells.individual
        k = len(self.class_size)
        while True:
            live = [b for b in range(self.m) if self.remaining[b] > 0]
            if len(live) < self.l:
                return
            live.sort(key=lambda b: (-int(self.remaining[b]), b))
            for b in live:
                self._maybe_compact(b)
            cell = self._seed(live[0])
            self.take(cell)
            members = [cell]
            state = self._initial_state(cell)
            key = int(key_of[cell])
            inds = [int(individual[cell])] if individual is not None else []
            vals = [[int(x[cell])] for x in self.cells.extra_sa]
            for b in live[1:]:
                if len(members) == self.l:
                    break
                c = self._pick(b, key, state, (inds, vals))
                self.picks += 1
                if c is None:
                    self.skipped += 1
                    continue
                self.take(c)
                members.append(c)
                self._add(state, c)
                if individual is not None:
                    inds.append(int(individual[c]))
                for j, x in enumerate(self.cells.extra_sa):
                    vals[j].append(int(x[c]))
            if len(members) < self.l:
                for c in reversed(members):
                    self.untake(c)
                self.stopped = True
                return
            for c in members:
                gid[self.slot[self.head[c] - 1]] = k
            self._close(state)
            k += 1

    def _close(self, state: list[int]) -> None:
        self.states.append(state)
        self.class_cost.append(self._state_cost(state))
        self.class_size.append(self.l)

    # ------------------------------------------------------------------ incorporate
    def incorporate(self) -> tuple[int, int, int, int]:
        """Fig. 3 for every residual row (:func:`~.incorporate.incorporate`)."""
        return incorporate(self)

    def adopt(self, gid: IntArray, states: IntArray, costs: CostArray) -> None:
        """Take a finished selection instead of selecting: row position → class (−1: residual), each
        class's state (classes × state width) and scaled cost; :meth:`run` then incorporates."""
        chosen = gid >= 0
        self.gid[chosen] = gid[chosen]
        self.taken[chosen] = True
        if self.seed_blocks is not None:
            self.seed_blocks.taken(np.flatnonzero(chosen))
        self.state_array = states
        self.class_cost = costs.tolist()
        self.class_size = np.bincount(gid[chosen], minlength=len(states)).tolist()

    # ------------------------------------------------------------------ driver
    def run(self, schedule: Schedule | None, *, batch: int | None = None) -> Result:
        """Select — in waves of ``batch`` classes (fast mode, needs a window), sequentially with the
        schedule, or (no schedule) with the variants' dynamic Max-l — then incorporate."""
        if self.state_array is not None:
            pass  # a selection was adopted
        elif schedule is not None and batch is not None and self.window is not None:
            select_waves(self, schedule, self.window, batch)
        elif schedule is not None:
            self.select(schedule)
        else:
            self.select_variant()
        classes = len(self.class_size)
        residual, repeats, ind_repeats, grown = self.incorporate()
        sizes = np.array(self.class_size, dtype=np.int64)
        cost = np.array(self.class_cost, dtype=self.dtype)
        il = (sizes * cost).sum().item() if classes else 0
        return Result(
            gid=self.gid,
            classes=classes,
            residual_rows=residual,
            residual_repeats=repeats,
            individual_repeats=ind_repeats,
            classes_incorporated=grown,
            picks=self.picks,
            window_fallbacks=self.fallbacks,
            compactions=self.compactions,
            skipped_buckets=self.skipped,
            stopped_early=self.stopped,
            il_scaled=il,
            sizes=sizes,
        )


def _banned(bk: Bucket, lo: int, hi: int, banned: tuple[list[int], list[list[int]]]) -> np.ndarray:
    """Cells lo..hi that share the class's individual or one of its secondary SA values (SPEC §2.4)."""
    inds, vals = banned
    bad = np.zeros(hi - lo, dtype=bool)
    if bk.ind is not None and inds:
        bad |= np.isin(bk.ind[lo:hi], inds)
    for x, v in zip(bk.extra, vals, strict=True):
        bad |= np.isin(x[lo:hi], v)
    return bad
