"""Which pairs of classes a pass of the BSGI exchange (:mod:`.exchange`) prices: the places along an order
of classes that a pass's rounds pair (:func:`places`, :class:`Round`), an order by distinct ranks without
a sort (:func:`ranked`), every class in slices of one size for computing states (:func:`slices`), the
pass's pair log of when each pair was last priced (:class:`PairLog`), and how a round's chunks of
disjoint pairs are shared among threads (:func:`shared`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ....util.lazy import library
from ...shared.trees import IntArray

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

_REFRESH = 1 << 15  # classes whose states are computed at once when a run starts
T = TypeVar("T")
SHARES = 1  # chunks per thread of a round (each chunk's steps hand the interpreter lock over: fewest)


def places(k: int, window: int) -> list[tuple[IntArray, IntArray]]:
    """A pass's places along an order of k classes, per distance d = 1..window and phase 0, 1: the
    places t with ⌊t / d⌋ of that parity, and t + d (32-bit where k fits)."""
    out = []
    dtype = np.int32 if k < 2**31 else np.int64
    for d in range(1, window + 1):
        for phase in (0, 1):
            t = np.arange(max(k - d, 0), dtype=dtype)
            t = t[(t // d) % 2 == phase]
            out.append((t, t + d))
    return out


@dataclass(frozen=True)
class Round:
    """A round's disjoint pairs: the class at each place ``first`` along ``order`` with the one at the
    same entry of ``second``. A chunk takes its own pairs' classes (:meth:`pairs`), on its thread, rather
    than the main thread taking every pair's before the chunks start. Unpacks as ``a, b``: all pairs."""

    order: IntArray
    first: IntArray
    second: IntArray
    # (order, places) in the pass's lists, where a forked process reads them (:mod:`.helper`)
    slot: tuple[int, int] | None = None

    def __len__(self) -> int:
        return len(self.first)

    def pairs(self, lo: int = 0, hi: int | None = None) -> tuple[IntArray, IntArray]:
        """The classes of the pairs lo..hi: (A's, B's)."""
        return np.take(self.order, self.first[lo:hi]), np.take(self.order, self.second[lo:hi])

    def __iter__(self) -> Iterator[IntArray]:
        return iter(self.pairs())


def ranked(x: IntArray, n: int) -> IntArray:
    """``np.argsort(x, kind="stable")`` of integers in 0..n-1, by placing each entry at its value when they
    are distinct (a class's lowest or highest rank along an order: every row has its own rank), one pass
    over n slots instead of a sort; a sort where they are not."""
    if len(x) and x.min() >= 0 and x.max() < n:
        slot = np.full(n, -1, dtype=np.int64)
        slot[x] = np.arange(len(x))
        out = np.compress(slot >= 0, slot)
        if len(out) == len(x):  # no two entries alike
            return out
    return np.argsort(x, kind="stable")


def slices(sizes: IntArray) -> Iterator[tuple[IntArray, int]]:
    """Every class, as slices of at most ``_REFRESH`` classes of one size: the states' temporaries of all
    classes at once were a run's peak."""
    for size in np.unique(sizes).tolist():
        same = np.flatnonzero(sizes == size)
        for at in range(0, len(same), _REFRESH):
            yield same[at : at + _REFRESH], size


class PairLog:
    """The round in which each pair of classes of a pass was last priced (−1: never), kept across passes.

    Pairs are numbered by hashing (``pandas.factorize``), and a pass finds the previous pass's stamps by a
    hash lookup: sorting the pass's pair keys (``numpy.unique``) cost more than the pricing it saved."""

    def __init__(self) -> None:
        self.keys: IntArray = np.zeros(0, dtype=np.int64)  # the pass's distinct pair keys min·k + max
        self.stamp: IntArray = np.zeros(0, dtype=np.int64)

    def begin(self, rounds: Sequence[tuple[IntArray, IntArray] | Round], k: int) -> list[IntArray]:
        """Log the pairs of a pass's rounds; returns each round's pair ids."""
        parts = [np.minimum(a, b) * k + np.maximum(a, b) for a, b in rounds]
        ids, keys = pd.factorize(np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64))
        stamp = np.full(len(keys), -1, dtype=np.int64)
        if len(self.keys):
            at = pd.Index(self.keys).get_indexer(pd.Index(keys))
            hit = at >= 0
            stamp[hit] = self.stamp[at[hit]]
        self.keys, self.stamp = np.asarray(keys, dtype=np.int64), stamp
        return np.split(ids.astype(np.int64, copy=False), np.cumsum([len(p) for p in parts])[:-1])


def shared(pool: Executor, threads: int, jobs: int, run: Callable[[int], T]) -> list[T]:
    """``[run(c) for c in range(jobs)]``, run on this thread and ``threads − 1`` of ``pool``, each taking
    the next job not yet taken (a thread whose jobs cost less takes more of them). The callers' jobs touch
    disjoint classes (a round's chunks of disjoint pairs) or only read (a pass's orders), so which thread
    runs which does not change what they do."""
    todo = iter(range(jobs))  # one iterator for all: ``next`` on it is atomic under the interpreter lock
    done: dict[int, T] = {}

    def take() -> None:
        for c in todo:
            done[c] = run(c)

    rest = [pool.submit(take) for _ in range(min(threads, jobs) - 1)]
    take()
    for f in rest:
        f.result()
    return [done[c] for c in range(jobs)]
