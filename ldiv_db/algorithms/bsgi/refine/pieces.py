"""The feasible split's attempts in pieces (:mod:`.split`): an attempt sorts, counts and prices each node
of a level from the node's own rows only, so it can be made over a run of whole nodes at a time and the
runs' cuts put side by side are the whole level's, to the last bit. Likewise the choice among a node's
attempts and the gather of its rows for the next level are the node's own, so a piece's are made as soon
as its attempts are (:func:`best_in_pieces`). Here too what an attempt keeps of its pricing
(:class:`Sides`) and makes (:class:`Cut`), and the level's per-row arrays (:class:`Rows`).

Why pieces, on threads (the split's after the greedy): the pieces of a level's ``TRIES`` attempts are taken
by the threads as they finish, so two threads end a level together instead of one idling through the
third attempt; each thread holds a piece's temporaries rather than a whole attempt's; and over a piece of
~:data:`PIECE_ROWS` rows an attempt's temporaries stay in the processor's caches between its dozen walks
over them (a level's arrays span every row of the table). Not beside the greedy: there a piece's short
numpy steps would each take the interpreter lock back from the greedy's Python."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ...shared.trees import IntArray

# rows of a piece: above a level's working set in the caches, below it the pieces' own steps add up
PIECE_ROWS = 1 << 16


@dataclass
class Sides:
    """What the split's pricing (``_Splitter._price``) priced: its positions, and per QI and position the
    span cost of the part before it (``left``) and of the part from it (``right``)."""

    j: IntArray = dataclasses.field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    left: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros((0, 0)))
    right: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros((0, 0)))


@dataclass
class Cut:
    """An attempt's cut of its nodes."""

    rows: IntArray  # the nodes' rows (positions in the level's), each node's left part first
    cut: IntArray  # per node: rows of the left part
    k1: IntArray  # per node: classes of the left part
    cost: npt.NDArray[np.float64]  # per node: Σ over its parts of rows × span cost
    near: npt.NDArray[np.bool_]  # per node: cut by the near-prefix split
    spans: npt.NDArray[np.float64]  # per node: its left part's span cost per QI, then its right part's


@dataclass(frozen=True)
class Rows:
    """Per-row arrays of a level in its row order: a node's attempts gather from them through a
    permutation within the node, which reads memory near where it writes (a gather through row ids
    scattered over the table misses the cache on almost every row)."""

    codes: IntArray  # QIs × rows, the splitter's narrow codes
    value: IntArray
    key: IntArray

    def take(self, at: IntArray) -> Rows:
        return Rows(np.take(self.codes, at, axis=1), np.take(self.value, at), np.take(self.key, at))

    def part(self, lo: int, size: int) -> Rows:
        """Rows lo..lo + size − 1, as views."""
        hi = lo + size
        return Rows(self.codes[:, lo:hi], self.value[lo:hi], self.key[lo:hi])

    def take_into(self, at: IntArray, out: Rows, lo: int) -> None:
        """``take(at)`` written into ``out`` from row ``lo`` on (``at``: positions among these rows)."""
        hi = lo + len(at)
        for c, o in zip(self.codes, out.codes, strict=True):
            np.take(c, at, out=o[lo:hi], mode="clip")  # "clip": unbuffered; every position is in range
        np.take(self.value, at, out=out.value[lo:hi], mode="clip")
        np.take(self.key, at, out=out.key[lo:hi], mode="clip")


def choose(cuts: Sequence[Cut], lens: IntArray) -> Cut:
    """Per node (``lens`` rows each) the cut of least cost of ``cuts`` (attempts over the same nodes, in
    their order), the first on ties; made in the first cut's arrays."""
    best = cuts[0]
    for c in cuts[1:]:
        better = c.cost < best.cost
        rows = np.repeat(better, lens)
        best.rows[rows] = c.rows[rows]
        best.cut[better], best.k1[better], best.cost[better] = c.cut[better], c.k1[better], c.cost[better]
        best.near[better], best.spans[better] = c.near[better], c.spans[better]
    return best


def pieces(lens: IntArray) -> list[int]:
    """The node numbers at which the pieces of a level's nodes (``lens`` rows each) begin, then the node
    count: runs of whole nodes of about :data:`PIECE_ROWS` rows each, at most one a node."""
    total = int(lens.sum())
    count = max(1, min(total // PIECE_ROWS, len(lens)))
    ends = np.cumsum(lens)
    cuts = np.searchsorted(ends, total * np.arange(1, count, dtype=np.int64) // count, side="right")
    out: list[int] = np.unique(np.concatenate([[0], cuts, [len(lens)]])).tolist()
    return out


T = TypeVar("T")


def shared(pool: Executor, width: int, tasks: Sequence[Callable[[], T | None]]) -> list[T]:
    """The tasks' values (those not ``None``) in their order, the tasks taken in turn by ``width`` of the
    pool's threads and this one, each as it finishes its last."""
    out: list[T | None] = [None] * len(tasks)
    lock = threading.Lock()
    todo = iter(range(len(tasks)))

    def work() -> None:
        while True:
            with lock:
                i = next(todo, None)
            if i is None:
                return
            out[i] = tasks[i]()

    running = [pool.submit(work) for _ in range(width)]
    work()
    for f in running:
        f.result()
    return [c for c in out if c is not None]


def joined(cuts: Sequence[Cut], offsets: IntArray) -> Cut:
    """One attempt's cut from its pieces' in order (``offsets``: where each piece's rows begin among the
    level's)."""
    if len(cuts) == 1:
        return cuts[0]
    rows = np.concatenate([c.rows + int(o) for c, o in zip(cuts, offsets, strict=True)])
    cat = [np.concatenate([getattr(c, f) for c in cuts]) for f in ("cut", "k1", "cost", "near", "spans")]
    return Cut(rows, *cat)


# an attempt over a run of whole nodes: (seg, lens, ks, qi, sized, lo) as ``_Splitter._attempt`` takes them
Attempt = Callable[[IntArray, IntArray, IntArray, IntArray, IntArray, int], Cut]


def in_pieces(
    pool: Executor, width: int, attempt: Attempt, seg: IntArray, lens: IntArray, ks: IntArray,
    rank: IntArray, sized: IntArray, attempts: Sequence[int],
) -> list[Cut]:  # fmt: skip
    """The cuts of a level's ``attempts`` (attempt r along each node's QI ``rank[:, r]``), each made in
    :func:`pieces` by ``attempt``, the pieces of all of them :func:`shared` by ``width`` of the pool's
    threads and this one, then :func:`joined` per attempt, in their order."""
    bounds = pieces(lens)
    starts = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    tasks = []
    for r in attempts:
        for a, b in itertools.pairwise(bounds):
            lo, hi = int(starts[a]), int(starts[b])
            fro, to = np.searchsorted(sized, [lo, hi])
            piece = (seg[lo:hi] - a, lens[a:b], ks[a:b], rank[a:b, r], sized[fro:to] - lo, lo)
            tasks.append(functools.partial(attempt, *piece))
    made = shared(pool, width, tasks)
    per = len(bounds) - 1
    return [joined(made[t * per : (t + 1) * per], starts[bounds[:-1]]) for t in range(len(attempts))]


# an attempt over nodes a..b − 1 of a level along their r-th widest QI: (a, b, r) → its cut
PieceAttempt = Callable[[int, int, int], Cut]


def best_in_pieces(
    pool: Executor, width: int, tries: int, lens: IntArray, attempt: PieceAttempt,
    finish: Callable[[int, int, Cut], None],
) -> Cut:  # fmt: skip
    """A level's best cut (:func:`choose` of its ``tries`` attempts) made in :func:`pieces`: the pieces of
    every attempt are :func:`shared` as :func:`in_pieces` shares them, and the thread that makes a piece's
    last attempt chooses among the piece's attempts and calls ``finish(a, b, best)`` for its nodes a..b − 1
    (``best.rows``: positions among the piece's rows), so what follows the attempts is done piece by piece
    on the threads too. Returns the nodes' choices joined, without the rows (which ``finish`` was given)."""
    bounds = pieces(lens)
    count = len(bounds) - 1
    made: list[list[Cut | None]] = [[None] * tries for _ in range(count)]
    left = [tries] * count
    best: list[Cut | None] = [None] * count
    lock = threading.Lock()

    def task(t: int) -> None:
        r, i = divmod(t, count)
        a, b = bounds[i], bounds[i + 1]
        cut = attempt(a, b, r)
        with lock:
            made[i][r], left[i] = cut, left[i] - 1
            last = not left[i]
        if last:
            cuts = [c for c in made[i] if c is not None]
            made[i] = []
            chosen = choose(cuts, lens[a:b])
            finish(a, b, chosen)
            best[i] = dataclasses.replace(chosen, rows=chosen.rows[:0])  # its rows are done with

    shared(pool, width, [functools.partial(task, t) for t in range(tries * count)])
    done = [c for c in best if c is not None]
    cat = [np.concatenate([getattr(c, f) for c in done]) for f in ("cut", "k1", "cost", "near", "spans")]
    return Cut(np.zeros(0, dtype=np.int64), *cat)
