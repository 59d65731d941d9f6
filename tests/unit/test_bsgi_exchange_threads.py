"""The BSGI exchange search's work shared among threads (``refine/rounds.py: shared``): every job run once,
the results in job order, whichever thread ran them; a pass's orders sorted on the threads equal those of
one thread, and its orders by the classes' lowest and highest ranks are those of a stable sort; a round's
pairs are cut into one chunk per thread; and the spread changes' distances read from the per-member codes
equal the rows' own."""

from __future__ import annotations

import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi.greedy.cost import CostModel
from ldiv_db.algorithms.bsgi.refine import exchange
from ldiv_db.algorithms.bsgi.refine.exchange import Refiner
from ldiv_db.algorithms.bsgi.refine.rounds import ranked, shared
from tests.unit.test_bsgi_refine_fast import cases


def test_shared_runs_every_job_once_and_returns_them_in_order() -> None:
    """Twenty jobs on this thread and two of a pool: each run once, the results in job order, and a
    thread done early takes further jobs (the slow job 0 leaves the others to the other threads)."""
    ran: list[tuple[int, str]] = []

    def job(c: int) -> int:
        if c == 0:
            time.sleep(0.2)
        ran.append((c, threading.current_thread().name))
        return c * c

    with ThreadPoolExecutor(2) as pool:
        out = shared(pool, 3, 20, job)
        assert shared(pool, 3, 1, job) == [0]  # fewer jobs than threads
        assert shared(pool, 3, 0, job) == []
    assert out == [c * c for c in range(20)]
    assert sorted(c for c, _ in ran[:20]) == list(range(20))
    by_thread: dict[str, int] = {}
    for _, name in ran[:20]:
        by_thread[name] = by_thread.get(name, 0) + 1
    slow = next(name for c, name in ran if c == 0)
    assert len(by_thread) >= 2 and by_thread[slow] <= 2  # the others took the jobs meanwhile


def _refiner(case: dict[str, Any]) -> Refiner:
    return Refiner(
        CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
    )


@settings(max_examples=30, deadline=None)
@given(case=cases(), pairs=st.integers(0, 400), threads=st.integers(1, 4))
def test_a_rounds_pairs_are_cut_into_one_chunk_per_thread(
    case: dict[str, Any], pairs: int, threads: int
) -> None:
    """A round's pairs are shared among the threads as one contiguous chunk each (fewer where the pairs
    are fewer than ``CHUNK`` a chunk): every pair once, and no more chunks than threads, each of which
    would hand the interpreter lock over between the threads once more per numpy step."""
    refiner = _refiner(case)
    ran: list[tuple[int, int]] = []

    def run(lo: int, hi: int) -> int:
        ran.append((lo, hi))
        return hi - lo

    saved = exchange.CHUNK
    exchange.CHUNK = 1  # chunks of one pair or more
    try:
        with ThreadPoolExecutor(max(threads - 1, 1)) as pool:
            refiner._pool, refiner.workers = (pool if threads > 1 else None), threads
            assert refiner._chunks(pairs, run) == pairs
    finally:
        exchange.CHUNK = saved
    ran.sort()
    assert ran[0][0] == 0 and ran[-1][1] == pairs
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ran))
    assert len(ran) == (min(threads, pairs) if threads > 1 and pairs >= 2 else 1)


@settings(max_examples=30, deadline=None)
@given(case=cases())
def test_orders_sorted_on_threads_are_those_of_one_thread(case: dict[str, Any]) -> None:
    refiner = _refiner(case)
    refiner.run(case["gid"].copy())  # the refined members: classes spread along the orders
    mem = refiner._mem
    sizes = (mem >= 0).sum(axis=1)
    alone = refiner._orders(mem, sizes)
    with ThreadPoolExecutor(2) as pool:
        refiner._pool, refiner.workers = pool, 3
        together = refiner._orders(mem, sizes)
    assert len(alone) == len(together) == refiner.orders * 3
    assert all(np.array_equal(x, y) for x, y in zip(alone, together, strict=True))


@settings(max_examples=30, deadline=None)
@given(case=cases())
def test_distances_from_member_codes_are_the_rows_distances(case: dict[str, Any]) -> None:
    """After a run the per-member copies hold each class's rows' codes, and the a_i-to-b_j distances
    taken from them are bit for bit those taken from the rows."""
    refiner = _refiner(case)
    refiner.run(case["gid"].copy())
    mem, pricer = refiner._mem, refiner.pricer
    sizes = (mem >= 0).sum(axis=1)
    rng = np.random.default_rng(len(sizes))
    for sa in np.unique(sizes).tolist():
        for sb in np.unique(sizes).tolist():
            ca, cb = np.flatnonzero(sizes == sa), np.flatnonzero(sizes == sb)
            ca, cb = rng.choice(ca, 12), rng.choice(cb, 12)
            ra, rb = mem[ca, :sa], mem[cb, :sb]
            want = pricer.distance(ra[:, :, None], rb[:, None, :])
            assert np.array_equal(pricer._cross(ca, cb, ra, rb), want)


@settings(max_examples=200, deadline=None)
@given(x=st.lists(st.integers(-2, 40), max_size=30), n=st.integers(1, 40))
def test_ranked_is_the_stable_sort(x: list[int], n: int) -> None:
    """Distinct entries in 0..n-1 placed at their values, anything else (repeats, out of range) sorted:
    either way the stable sort's order."""
    a = np.array(x, dtype=np.int64)
    got = ranked(a, n)
    assert np.array_equal(got, np.argsort(a, kind="stable"))
    assert got.dtype == np.argsort(a, kind="stable").dtype


@settings(max_examples=30, deadline=None)
@given(case=cases())
def test_orders_by_lowest_and_highest_rank_are_the_sorted_ones(case: dict[str, Any]) -> None:
    """A pass's orders by each class's lowest and highest row rank (placed, :func:`ranked`) and by its
    mean rank are the stable sorts of those keys computed directly."""
    refiner = _refiner(case)
    refiner.run(case["gid"].copy())
    mem = refiner._mem
    sizes = (mem >= 0).sum(axis=1)
    got = refiner._orders(mem, sizes)
    valid, n = mem >= 0, len(refiner._ranks)
    for k in range(refiner.orders):
        ranks = refiner._ranks[np.maximum(mem, 0), k]
        mean = np.where(valid, ranks, 0).sum(axis=1) / sizes
        low, high = np.where(valid, ranks, n).min(axis=1), np.where(valid, ranks, -1).max(axis=1)
        for i, key in enumerate((mean, low, high)):
            assert np.array_equal(got[3 * k + i], np.argsort(key, kind="stable"))
