"""BSGI refinement (``--refine exchange``, beyond the paper): a local search over a finished partition
that exchanges rows between nearby classes while every class keeps its size and its distinct values.

What may change and what may not. An exchange swaps one row of class A with one row of class B, so every
class keeps its size (the class count stays BSGI Theorem 1's maximum, DM and CAVG stay optimal). It is
admissible only when the row entering a class shares none of its *distinct keys* with the rows staying
there: the primary SA bucket, every secondary SA (``--sa a,b``) and the individual
(``--individual-column``). So no exchange creates a repeated value — a class of l distinct values keeps l
distinct values, and a class that already repeats a value (the l-Property failed) repeats no more. It is
applied only when it lowers the IL sum Σ |G|·cost(G) (SPEC §0.7, with ``--weights``) of the two classes,
or — a *sideways* exchange — when it keeps that sum exactly and lowers the two classes' spread (below),
priced exactly by the :class:`~..greedy.cost.CostModel` (integers; doubles where the model is inexact, where a
sideways exchange may not raise the sum by its rounding either), so the IL never rises above the greedy's.

Sideways exchanges. A class's cost is fixed by each QI's extremes (its LCA, its range), so one exchange
rarely lowers it: a class with two rows of the other sex stays mixed when one of them leaves, and an
exchange search that takes only improving exchanges stops there, well above what re-splitting pairs of
classes reaches (bench/README.md, BSGI refinement). The *spread*
of a class, Σ over its pairs of rows of the pair's distance (the cost of a class of those two rows,
:meth:`~.swaps.SwapPricer.distance`), sees each such step: the exchange that sends one of the two rows away
lowers it. So an exchange that keeps the IL sum of the pair and lowers the sum of their spreads is taken
too, and the next exchange can lower the IL. A pair applies its best exchange by (IL change, spread
change): an improving one first, else the sideways one that lowers the spread most. Every exchange lowers
(IL sum, spread sum) in that order, so the search cannot cycle. Between two classes of two the spread is
the cost (one pair of rows), so l = 2 has no sideways exchanges. A pass with them costs two to three plain
ones and the search gains over more passes. So the first pass takes improving exchanges only (from a
start most of the gain is there, at half a sideways pass's cost), and the search stops after ``SIDEWAYS_PASSES`` passes that applied sideways exchanges (or by ``MIN_GAIN``, from
the second pass on; passes that applied none — few rows tie on some data — count as plain ones). What
they gain and cost: bench/README.md, BSGI refinement.

Where exchanges are looked for. Classes are ordered along each locality order (the mean rank of their
rows' locality keys: lexicographic QI codes, most costly to mix first, in several rotations; when the search
starts from the feasible split, its tree's depth-first order of the rows replaces the last rotation —
:meth:`Refiner.adopt_order`). A *round*
pairs each class with the class ``d`` places further in one order — disjoint pairs, ``d`` = 1 ..
``WINDOW`` and two phases — and prices every swap of every pair at once: for class A with rows a_1..a_s,
the state of A without a_i (its leave-one-out state) joined with b_j's codes is A's state after the swap
(:mod:`.swaps` prices all QIs of a round in a few numpy calls). Each pair applies its best swap.
A *pass* runs every round; passes repeat until one gains less than ``MIN_GAIN`` of the IL or
``MAX_PASSES`` ran (or ``SIDEWAYS_PASSES`` with sideways exchanges), so a pass is O(n·l·WINDOW·orders).

Pairs not priced, without changing what the search finds: a pair of classes whose costs are both 0, or
neither of which changed in this pass or the previous one (as always); a pair priced since either class
last changed (it had no swap to apply then and has none now: the pass's pair log, :class:`~.rounds.PairLog`,
kept where classes have three rows or more — between classes of two pricing a pair costs less than
logging it);
and a pair whose lower bound (:meth:`~.swaps.SwapPricer.hopeful`) shows that no swap can lower its cost.
Between classes of three rows or more, a swap is priced only when its own lower bound
(:meth:`~.swaps.SwapPricer.bounds`: A without a_i, A's core joined with b_j, and the same for B) is below
the pair's cost (or at it, with sideways exchanges) — on Adult 0.3–2 % of the swaps of the pairs that pass
the first bound without sideways exchanges. Each skipped pair or swap would have applied nothing, so the
exchanges applied, their order and the release are those of pricing every swap.

Two threads (or more, :func:`workers`). The pairs of a round are disjoint and each applies its own best
swap, priced from its own two classes' states, so a round's pairs can be split into chunks kept, priced
and applied side by side: the chunks write disjoint classes' members, costs and states, and apply exactly
the exchanges one chunk would (numpy leaves the interpreter lock while it prices). A round is cut into
``SHARES`` chunks per thread (one), each thread taking the next chunk when it is done with one
(:func:`~.rounds.shared`). A chunk's numpy steps hand the interpreter lock back and forth between the
threads, each hand-over a context switch, and their count grows with the chunks: the fewest chunks that
keep both threads busy cost least (more balance a round's end better, but cost more in hand-overs than
they save). A group of fewer than ``2 * CHUNK`` pairs stays in one piece. The work of a pass that is not
a round's — its orders, and the states and spreads computed for every class — is shared among the threads
the same way. Where every class has one size and no pair log is kept (tables at scale), a round's second
half is priced in a forked process instead (:mod:`.helper`), which has an interpreter lock of its own.

``MIN_GAIN`` saves the last pass in most cases at a small rise of the IL. The figures behind ``CHUNK``,
``SIDEWAYS_PASSES`` and ``MIN_GAIN``: bench/README.md, BSGI refinement.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from ....core.options import Option
from ...shared.lca import stable_order
from ...shared.trees import IntArray, narrow_dtype
from ..greedy.cost import CostArray, CostModel, FloatArray
from . import helper
from .gathers import Members, highest, lowest, member_matrix, take_cells, take_rows
from .helper import workers
from .qi import QI, State
from .rounds import SHARES, PairLog, Round, places, ranked, shared, slices
from .swaps import SwapPricer, best_swaps, improves

WINDOW = 4  # classes paired at distances 1..WINDOW along each locality order
MAX_PASSES = 10
SIDEWAYS_PASSES = 3  # passes at most that apply sideways exchanges (each costs 2-3 plain ones)
MIN_GAIN = 0.0075  # a pass gaining less than this share of the IL ends the search
_PAIR_LOG = 1 << 23  # pair slots of a pass (≈ 48 bytes each) up to which priced pairs are logged
CHUNK = 2048  # a round's pairs of one size combination are split into chunks of at least this many

REFINE = Option(
    "refine",
    "choice",
    "bsgi: after the greedy, exchange rows between nearby classes while the IL drops (every class keeps "
    "its size and distinct values); none = the paper's algorithm",
    default="exchange",
    choices=("exchange", "none"),
)


@dataclass
class Refined:
    gid: IntArray  # per row position: class id (unchanged ids, exchanged rows)
    il_before: int | float  # scaled Σ |G|·cost(G)
    il_after: int | float
    passes: int
    moves: int  # exchanges applied (each moves two rows)
    seconds: float
    threads: int = 1  # threads the exchange passes could use (:func:`workers`)
    sideways: int = 0  # of the moves, those that kept the IL and lowered the spread


@dataclass(frozen=True)
class _Pairs:
    """Disjoint pairs of classes of a round, all of sizes (sa, sb): class a[p] with class b[p]."""

    a: IntArray
    b: IntArray
    sa: int
    sb: int


@dataclass(frozen=True)
class _Swaps:
    """The exchanges chosen for some of those pairs: pair p swaps A's member i with B's member j, after
    which A costs ``new_a`` and B ``new_b`` (scaled)."""

    p: IntArray
    i: IntArray
    j: IntArray
    new_a: CostArray
    new_b: CostArray


class Refiner:
    """The exchange search over a partition of ``n`` rows (see the module docstring)."""

    def __init__(
        self,
        model: CostModel,
        codes: Sequence[IntArray],
        distinct: Sequence[IntArray],
        locality: IntArray,
        *,
        window: int = WINDOW,
        max_passes: int = MAX_PASSES,
        min_gain: float = MIN_GAIN,
    ) -> None:
        self.dtype = model.dtype
        self.exact = model.exact
        self.attrs = [QI(a, c, self.dtype) for a, c in zip(model.attrs, codes, strict=True)]
        self.distinct = list(distinct)
        keys = locality.reshape(len(locality), -1)
        # per locality order, each row's rank in it (the keys never change: ranked once, not every pass;
        # 32-bit, half the memory of the keys, which are not kept)
        self._ranks = np.empty(keys.shape, dtype=np.int32 if len(keys) < 2**31 else np.int64)
        for k in range(keys.shape[1]):
            self._ranks[stable_order(keys[:, k]), k] = np.arange(len(keys))
        self.orders = keys.shape[1]  # locality orders (the last may become the split tree's: adopt_order)
        self.window = window
        self.max_passes = max_passes
        self.min_gain = min_gain
        self.extremes = True
        self.skip_priced = True
        self.prune = True
        self.sideways = True  # also exchanges that keep the IL and lower the spread (module docstring)
        self.sideways_passes = SIDEWAYS_PASSES
        self._level: list[int] = []  # sideways exchanges applied, per priced group of pairs
        self.pricer = SwapPricer(self.attrs, self.dtype, len(self._ranks))
        self._mem: IntArray = np.zeros((0, 0), dtype=np.int64)  # per class: its row positions (−1 pads)
        self._held: list[IntArray] = []  # per distinct key: per class and member, its row's key
        self._active = np.zeros(0, dtype=bool)  # classes changed in the previous pass
        self._changed = np.zeros(0, dtype=bool)  # classes changed in this pass
        # per class: 1 while its cost is above 0, | 2 while it changed in this pass or the previous one
        # (what a round's keep test reads of a class, one byte gathered where it read three arrays)
        self._live: np.ndarray[Any, Any] = np.zeros(0, dtype=np.uint8)
        self._clock = 0  # rounds run
        self._touched: IntArray = np.zeros(0, dtype=np.int64)  # per class: the round it last changed in
        self._pairs = PairLog()
        self._sizes: list[int] = []
        self.workers = workers()
        self._pool: Executor | None = None
        self.fork = True  # a round's second chunk in a forked process where it pays (:meth:`_forks`)
        self._helper: helper.Helper | None = None
        self._costs: CostArray = np.zeros(0)  # per class: its scaled cost (while a run lasts)
        self._order_of: IntArray = np.zeros((0, 0), dtype=np.int64)  # the pass's orders, shared with it
        self._at: list[tuple[IntArray, IntArray]] = []  # a pass's places (:func:`~.rounds.places`)
        # called after every round with (rounds done in this pass, rounds per pass, note)
        self.progress: Callable[[int, int, str], None] | None = None

    # ------------------------------------------------------------------ class states
    def _states(self, members: IntArray) -> list[State]:
        """Per attribute, the joined state of each row of ``members`` (classes × size)."""
        out = []
        for at in self.attrs:
            s = at.leaf(members[:, 0])
            for j in range(1, members.shape[1]):
                s = at.join(s, at.leaf(members[:, j]))
            out.append(s)
        return out

    def _cost(self, states: Sequence[State]) -> CostArray:
        total: CostArray = np.zeros(states[0][0].shape, dtype=self.dtype) if states else np.zeros(0)
        for at, s in zip(self.attrs, states, strict=True):
            total = total + at.cost(s)
        return total

    def selection_states(self, gid: IntArray, k: int) -> tuple[IntArray, CostArray]:
        """The engine's state matrix (classes × slots: node / lo, hi / code or −1) and scaled cost of the
        k equal-size classes of a selection (row position → class, −1 for rows not selected)."""
        rows = np.flatnonzero(gid >= 0)
        rows = rows[stable_order(gid[rows])]
        states = self._states(rows.reshape(k, -1))
        matrix = np.stack([x for s in states for x in s], axis=1).astype(np.int64, copy=False)
        return matrix, self._cost(states)

    def members(self, gid: IntArray) -> Members:
        """The partition ``gid`` (row position → class id 0..k-1) as per-class members, sizes and costs."""
        mem, sizes = member_matrix(gid)
        return Members(gid, mem, sizes, self.class_costs(mem, sizes))

    def class_costs(self, members: IntArray, sizes: IntArray) -> CostArray:
        """Scaled cost (Σ_i w_i·NCP_i) of every class, classes grouped by size."""
        out: CostArray = np.zeros(len(sizes), dtype=self.dtype)
        for s in np.unique(sizes).tolist():
            idx = np.flatnonzero(sizes == s)
            out[idx] = self._cost(self._states(members[idx, :s]))
        return out

    # ------------------------------------------------------------------ exchanges
    def _admissible(self, a: IntArray, b: IntArray, sa: int, sb: int) -> np.ndarray:
        """(pairs × |A| × |B|): swapping a_i and b_j (classes ``a[p]``, ``b[p]`` of sizes sa, sb) brings no
        value into a class that already holds it (on every distinct key: primary SA, secondary SAs,
        individual). The keys are read from the per-member copies (:attr:`_held`): one row per class."""
        ok = np.ones((len(a), sa, sb), dtype=bool)
        small = max(sa, sb) < 128  # counts up to a class size fit 8 bits
        for held in self._held:
            eq = take_rows(held, a)[:, :sa, None] == take_rows(held, b)[:, None, :sb]
            if small:  # a class's few members added one after another: a fifth of the time of ``sum``
                ones = eq.view(np.int8)
                in_a = functools.reduce(np.add, (ones[:, i] for i in range(ones.shape[1])))[:, None, :]
                in_b = functools.reduce(np.add, (ones[:, :, j] for j in range(ones.shape[2])))[:, :, None]
            else:
                in_a = eq.sum(axis=1, keepdims=True, dtype=np.int64)  # how often b_j's value is in A
                in_b = eq.sum(axis=2, keepdims=True, dtype=np.int64)  # how often a_i's value is in B
            ok &= (in_a == eq) & (in_b == eq)
        return ok

    def _refresh(self, mem: IntArray, classes: IntArray, size: int) -> None:
        """Recompute the cached leave-one-out states of classes (all of one size), and their members'
        distinct keys."""
        members = take_rows(mem, classes)[:, :size]
        for held, key in zip(self._held, self.distinct, strict=True):
            held[classes, :size] = np.take(key, members)
        self.pricer.refresh(members, classes)

    def _swap_costs(self, a: IntArray, b: IntArray, sa: int, sb: int) -> tuple[CostArray, CostArray]:
        """(pairs × |A| × |B|): the costs of A and of B after swapping a_i and b_j."""
        return self.pricer.costs(self._mem[a, :sa], self._mem[b, :sb], a, b)

    def _exchange(self, mem: IntArray, cost: CostArray, a: IntArray, b: IntArray, sa: int, sb: int) -> int:
        """Apply, for each pair (a[p], b[p]) of classes of sizes sa, sb, its best improving exchange (or
        its best sideways one); returns the number applied (``mem`` and ``cost`` are updated in place)."""
        now = sa * np.take(cost, a) + sb * np.take(cost, b)
        # between two classes of two the spread is the cost: no exchange keeps one and lowers the other
        sideways = self.pricer.sideways and max(sa, sb) >= 3
        if self.prune and max(sa, sb) >= 3:  # price only the swaps whose lower bound is below the cost
            keep, below, ma, mb = self.pricer.bounds(mem, a, b, sa, sb, now)
            a, b, now = take_rows(a, keep), take_rows(b, keep), take_rows(now, keep)
            swaps = np.nonzero(below & self._admissible(a, b, sa, sb))
            cost_a, cost_b = self.pricer.priced(ma, mb, a, b, swaps)
        elif sideways:  # every swap priced (the reference the bounds are tested against)
            ma, mb = mem[a, :sa], mem[b, :sb]
            swaps = np.nonzero(self._admissible(a, b, sa, sb))
            all_a, all_b = self._swap_costs(a, b, sa, sb)
            cost_a, cost_b = all_a[swaps], all_b[swaps]
        else:
            return self._exchange_dense(mem, cost, a, b, sa, sb, now)
        delta = sa * cost_a + sb * cost_b - now[swaps[0]]
        spread = self._spreads(ma, mb, a, b, swaps, delta) if sideways else None
        sel = best_swaps(swaps, delta, spread, now, self.exact)
        if sideways:  # the sideways ones among the exchanges applied
            self._level.append(int((~improves(delta[sel], now[swaps[0][sel]], self.exact)).sum()))
        chosen = _Swaps(swaps[0][sel], swaps[1][sel], swaps[2][sel], cost_a[sel], cost_b[sel])
        return self._apply(mem, cost, _Pairs(a, b, sa, sb), chosen)

    def _spreads(
        self,
        ma: IntArray,
        mb: IntArray,
        a: IntArray,
        b: IntArray,
        swaps: tuple[IntArray, ...],
        delta: CostArray,
    ) -> FloatArray:
        """The spread changes of the listed swaps that :func:`~.swaps.best_swaps` reads: those that do not
        raise the IL (``delta`` ≤ 0: the improving ones, whose ties the spread breaks, and the sideways
        candidates). The others' are left 0: it never picks them, whatever their spread; and a pair
        none of whose swaps it reads has no distances taken."""
        out: FloatArray = np.zeros(len(delta), dtype=np.float64)
        read = np.flatnonzero(delta <= 0)
        if len(read):
            listed = tuple(np.take(x, read) for x in swaps)
            out[read] = self.pricer.spread_change(ma, mb, a, b, listed)
        return out

    def _exchange_dense(
        self, mem: IntArray, cost: CostArray, a: IntArray, b: IntArray, sa: int, sb: int, now: CostArray
    ) -> int:
        """:meth:`_exchange` pricing every swap of the pairs at once, without sideways exchanges."""
        if self.prune:  # pairs with no swap below their cost have none to apply
            hope = self.pricer.hopeful(a, b, sa, sb, now)
            a, b, now = a[hope], b[hope], now[hope]
            if not len(a):
                return 0
        ok = self._admissible(a, b, sa, sb)
        all_a, all_b = self._swap_costs(a, b, sa, sb)
        delta = sa * all_a + sb * all_b - now[:, None, None]
        flat = delta.reshape(len(a), -1)
        flat[~ok.reshape(len(a), -1)] = 0
        best = np.argmin(flat, axis=1)
        p = np.flatnonzero(improves(flat[np.arange(len(a)), best], now, self.exact))
        i, j = np.divmod(best[p], sb)
        return self._apply(mem, cost, _Pairs(a, b, sa, sb), _Swaps(p, i, j, all_a[p, i, j], all_b[p, i, j]))

    def _apply(self, mem: IntArray, cost: CostArray, pairs: _Pairs, swaps: _Swaps) -> int:
        """Swap a[p]'s member i with b[p]'s member j, with the classes' new costs; returns how many."""
        a, b, sa, sb = pairs.a, pairs.b, pairs.sa, pairs.sb
        p, i, j = swaps.p, swaps.i, swaps.j
        if not len(p):
            return 0
        ra, rb = take_cells(mem, a[p], i), take_cells(mem, b[p], j)
        mem[a[p], i], mem[b[p], j] = rb, ra
        cost[a[p]], cost[b[p]] = swaps.new_a, swaps.new_b
        self._changed[a[p]] = self._changed[b[p]] = True
        self._live[a[p]], self._live[b[p]] = _flags(swaps.new_a), _flags(swaps.new_b)
        self._touched[a[p]] = self._touched[b[p]] = self._clock
        if sa == sb:  # one refresh for both sides (the classes of a round are distinct)
            self._refresh(mem, np.concatenate((a[p], b[p])), sa)
        else:
            self._refresh(mem, a[p], sa)
            self._refresh(mem, b[p], sb)
        return len(p)

    def _round(
        self, mem: IntArray, sizes: IntArray, cost: CostArray, pairs: Round, pid: IntArray | None
    ) -> int:
        """Price the disjoint pairs of one round (pair ids ``pid`` in the pass's log, if logged) and apply
        each one's best improving exchange."""
        moves = 0
        if len(self._sizes) == 1:  # every class of one size: one group, each chunk takes and keeps its pairs
            s = int(self._sizes[0])

            def run(lo: int, hi: int) -> int:
                got = self._kept(cost, *pairs.pairs(lo, hi), None if pid is None else pid[lo:hi])
                return self._exchange(mem, cost, *got, s, s) if len(got[0]) else 0

            moves += self._halves(pairs, run) if pid is None else self._chunks(len(pairs), run)
        else:
            a, b = self._kept(cost, *pairs.pairs(), pid)
            sa_, sb_ = sizes[a], sizes[b]
            for x in self._sizes:
                ga = sa_ == x
                if not ga.any():
                    continue
                for y in self._sizes:
                    g = ga & (sb_ == y)
                    if g.any():
                        moves += self._chunks(
                            int(g.sum()), functools.partial(self._group, mem, cost, a[g], b[g], x, y)
                        )
        self._clock += 1
        return moves

    def _kept(
        self, cost: CostArray, a: IntArray, b: IntArray, pid: IntArray | None
    ) -> tuple[IntArray, IntArray]:
        """The pairs of a round that may have an exchange to apply. The classes of other pairs of the
        round do not matter here, so chunks of the round's pairs can be kept side by side."""
        # (1-D gathers and masks by np.take / np.compress: numpy's indexing costs up to 4× as much)
        # both flags (:attr:`_live`) of either class: two classes of cost 0 cannot improve, and a pair of
        # classes that did not change since the previous pass was priced then
        keep = (np.take(self._live, a) | np.take(self._live, b)) == 3
        if pid is not None:  # a pair priced since either class last changed has no swap to apply
            keep &= self._pairs.stamp[pid] <= np.maximum(self._touched[a], self._touched[b])
            self._pairs.stamp[pid[keep]] = self._clock
        return take_rows(a, keep), take_rows(b, keep)

    def _group(
        self, mem: IntArray, cost: CostArray, a: IntArray, b: IntArray, sa: int, sb: int, lo: int, hi: int
    ) -> int:
        """:meth:`_exchange` of the pairs lo..hi of a group of kept pairs of sizes sa, sb."""
        return self._exchange(mem, cost, a[lo:hi], b[lo:hi], sa, sb)

    def _chunks(self, pairs: int, run: Callable[[int, int], int]) -> int:
        """``run(lo, hi)`` over a round's disjoint pairs 0..``pairs``: in chunks on the pool's threads when
        there are enough (:func:`~.rounds.shared`), else at once; returns the exchanges applied."""
        parts = min(self.workers * SHARES, pairs // CHUNK)
        if parts < 2 or self._pool is None:
            return run(0, pairs)
        cut = np.linspace(0, pairs, parts + 1).astype(np.int64).tolist()
        return sum(shared(self._pool, self.workers, parts, lambda c: run(cut[c], cut[c + 1])))

    def _halves(self, pairs: Round, run: Callable[[int, int], int]) -> int:
        """``run(lo, hi)`` over a round's disjoint pairs: with a forked process (:meth:`_serve`) the second
        half there and the first here, side by side where there are enough pairs, else :meth:`_chunks`;
        returns the exchanges applied."""
        n, cut, forked = len(pairs), len(pairs) // 2, self._helper
        if forked is None or n < 2 * CHUNK or pairs.slot is None:
            return self._chunks(n, run)
        forked.send((*pairs.slot, cut, n, self._clock, self.pricer.sideways))
        moves = run(0, cut)
        theirs, level = forked.result()
        self._level.extend(level)
        return int(moves + theirs)

    def _serve(self, job: tuple[int, int, int, int, int, bool]) -> tuple[int, list[int]]:
        """In the forked process: the pairs lo..hi of the round at ``slot`` (an order of the pass's shared
        orders, its places), kept, priced and applied; returns the exchanges and sideways counts."""
        o, t, lo, hi, self._clock, self.pricer.sideways = job
        pairs, s, level = Round(self._order_of[o], *self._at[t]), int(self._sizes[0]), len(self._level)
        got = self._kept(self._costs, *pairs.pairs(lo, hi), None)
        moves = self._exchange(self._mem, self._costs, *got, s, s) if len(got[0]) else 0
        return moves, self._level[level:]

    def _forks(self, k: int, log: bool) -> bool:
        """Whether a run's rounds cut their pairs between this process and a forked one: two CPUs or more,
        one class size, no pair log, and rounds (about k / 2 pairs) large enough to be cut."""
        one = len(self._sizes) == 1 and not log and k // 2 >= 2 * CHUNK + self.window
        return self.fork and self.workers >= 2 and one and helper.can_fork()

    def adopt_order(self, order: IntArray) -> None:
        """A data-adaptive locality order (row position → its place, a permutation of 0..n-1) replaces the
        last lexicographic rotation: the feasible split's depth-first order of its tree (:mod:`.split`),
        in which the classes near a class are its siblings and cousins in the tree — close on whichever
        QIs their nodes were cut along, where a lexicographic order is close on its leading QIs only. On
        Adult it took the refined IL at l = 3 from 8,653 to 8,257, below Mondrian's 8,434, in the same
        number of rounds (bench/README.md, "BSGI refinement")."""
        self._ranks[:, -1] = order

    def _rounds(self, mem: IntArray, sizes: IntArray) -> Iterator[Round]:
        """A pass's rounds (the orders taken at its start): along each order, each distance d =
        1..window and phase, the disjoint pairs of each class with the one d places further."""
        at = self._at if self._helper else places(len(sizes), self.window)  # the same for every order
        for o, order in enumerate(self._orders(mem, sizes)):
            if self._helper is not None:  # where the forked process reads it
                self._order_of[o] = order
            for t, (first, second) in enumerate(at):
                yield Round(self._order_of[o] if self._helper else order, first, second, (o, t))

    def _orders(self, mem: IntArray, sizes: IntArray) -> list[IntArray]:
        """The classes along each locality order by the mean rank of their rows, and by their lowest and
        their highest row (so that a class spread far apart is also paired with the classes near each
        of its ends)."""
        valid = mem >= 0
        n = len(self._ranks)
        at = np.maximum(mem, 0)

        def along(k: int) -> list[IntArray]:
            ranks = np.take(self._ranks[:, k], at)
            mean = np.where(valid, ranks, 0).sum(axis=1) / sizes
            out = [np.argsort(mean, kind="stable")]
            if self.extremes:
                out.append(ranked(lowest(np.where(valid, ranks, n)), n))
                out.append(ranked(highest(np.where(valid, ranks, -1)), n))
            return out

        # the orders are independent: on the round's threads when there are several
        each = (
            shared(self._pool, self.workers, self.orders, along)
            if self._pool
            else map(along, range(self.orders))
        )
        return [order for orders in each for order in orders]

    def run(self, gid: IntArray, members: Members | None = None) -> Refined:
        """Refine the partition ``gid`` (row position → class id 0..k-1); class ids are kept. ``members``:
        :meth:`members` of this very array, if the caller has them (taken over: changed in place, or
        copied into shared memory where a forked process works on them too; not for the caller's use)."""
        t0 = time.perf_counter()
        held = members if members is not None and members.gid is gid else self.members(gid)
        mem, sizes, cost = held.mem, held.sizes, held.cost
        k = len(sizes)
        self._sizes = np.unique(sizes).tolist()  # the class sizes present (a few)
        # the pair log holds every pair slot of a pass: kept only while that is small
        # and pays only where a pair costs more to price than to log: classes of three or more rows
        # (for classes of two the log costs more than it saves)
        log = self.skip_priced and int(sizes.max()) >= 3 and k * self.orders * 3 * self.window <= _PAIR_LOG
        forks = self._forks(k, log)
        # what a round writes: in shared memory where a forked process writes it too
        zeros = helper.zeros if forks else np.zeros
        if forks:
            mem, cost = helper.shared_copy(mem), helper.shared_copy(cost)
            self._order_of = zeros((self.orders * (3 if self.extremes else 1), k), dtype=np.int64)
            self._at = places(k, self.window)
        self._mem, self._costs = mem, cost
        self.pricer.sideways = False  # the first pass: improving exchanges only
        self._level = []
        self.pricer.alloc(mem.shape[0], mem.shape[1], spread=self.sideways, zeros=zeros)
        # per class and member: its row's distinct keys (so admissibility gathers one row per class)
        self._held = [zeros(mem.shape, dtype=narrow_dtype(key)) for key in self.distinct]
        self._touched = zeros(k, dtype=np.int64)
        self._touched[:] = -1
        self._pairs = PairLog()
        il_before = (sizes * cost).sum().item()
        self._active, self._changed, self._live = zeros(k, bool), zeros(k, bool), zeros(k, np.uint8)
        self._changed[:] = True
        forked = helper.start(self._serve) if forks else None  # before this process starts threads
        threads = ThreadPoolExecutor(self.workers - 1) if self.workers > 1 else None
        with forked or contextlib.nullcontext(), threads or contextlib.nullcontext():
            self._pool, self._helper = threads, forked
            try:
                self._each_slice(sizes, lambda classes, size: self._refresh(mem, classes, size))
                il, passes, moves = self._passes(mem, sizes, cost, il_before, log)
            finally:
                self._pool = self._helper = None
        out = np.empty_like(gid)
        valid = mem >= 0
        out[mem[valid]] = np.repeat(np.arange(k, dtype=np.int64), valid.sum(axis=1))
        seconds = time.perf_counter() - t0
        return Refined(out, il_before, il, passes, moves, seconds, self.workers, sum(self._level))

    def _passes(
        self, mem: IntArray, sizes: IntArray, cost: CostArray, il: Any, log: bool
    ) -> tuple[Any, int, int]:
        """Exchange passes until one gains less than ``min_gain`` of the IL, ``max_passes`` ran or
        ``sideways_passes`` passes applied sideways exchanges (from the second pass on); returns (IL,
        passes, moves)."""
        k, passes, moves, level_passes = len(sizes), 0, 0, 0
        per_pass = self.orders * (3 if self.extremes else 1) * self.window * 2
        sideways = self.sideways and int(sizes.max()) >= 3
        most = (
            f"{self.max_passes}; {self.sideways_passes} with sideways exchanges"
            if sideways
            else self.max_passes
        )
        while passes < self.max_passes and level_passes < self.sideways_passes and k > 1:
            passes += 1
            if sideways and passes == 2:
                self._begin_sideways(mem, sizes)
            self._active[:], self._changed[:] = self._changed, False  # in place: shared when forked
            self._live[:] = (cost > 0).view(np.uint8) | (self._active.view(np.uint8) << 1)
            note = f"exchange pass {passes} (at most {most})"
            level = sum(self._level)
            if log:
                rounds = list(self._rounds(mem, sizes))
                pids = self._pairs.begin(rounds, k)
                for done, (pairs, pid) in enumerate(zip(rounds, pids, strict=True), start=1):
                    moves += self._round(mem, sizes, cost, pairs, pid)
                    self._report(done, per_pass, note)
            else:
                for done, pairs in enumerate(self._rounds(mem, sizes), start=1):
                    moves += self._round(mem, sizes, cost, pairs, None)
                    self._report(done, per_pass, note)
            level_passes += sum(self._level) > level
            now = (sizes * cost).sum().item()
            gained, il = il - now, now
            if gained <= self.min_gain * il and not (sideways and passes == 1):
                break
        return il, passes, moves

    def _begin_sideways(self, mem: IntArray, sizes: IntArray) -> None:
        """From this pass on, sideways exchanges: every class's spread computed, every pair priced again
        (a pair without an improving exchange may have a sideways one)."""
        self.pricer.sideways = True
        self._each_slice(
            sizes, lambda classes, size: self.pricer.refresh_spread(mem[classes, :size], classes)
        )
        self._pairs = PairLog()
        self._changed[:] = True

    def _each_slice(self, sizes: IntArray, work: Callable[[IntArray, int], None]) -> None:
        """``work(classes, size)`` for every class, in slices of one size (:func:`~.rounds.slices`): on the
        threads when there are several (the slices' classes are disjoint)."""
        parts = list(slices(sizes))
        if self._pool is None:
            for classes, size in parts:
                work(classes, size)
        else:
            shared(self._pool, self.workers, len(parts), lambda c: work(*parts[c]))

    def _report(self, done: int, total: int, note: str) -> None:
        if self.progress is not None:
            self.progress(done, total, note)


def _flags(cost: CostArray) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """:attr:`Refiner._live` of classes of these costs that changed: 3 above cost 0, else 2."""
    return (cost > 0).view(np.uint8) | np.uint8(2)
