"""Decomposition+ group forming's row orders (SPEC §4.2, §4.3) against the sorts they stand for: the
combo ids are ``np.unique``'s inverse, the rows by (combo, priority) and by (bucket, priority) are
``np.lexsort``'s, and the priority is the most starved first, then the row index."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.decomposition.forming import _combos, _grouped, _stable_order, form_groups
from tests.memory import traced_peak

_ROWS = st.integers(1, 400)


@settings(max_examples=150, deadline=None)
@given(_ROWS, st.integers(1, 9), st.lists(st.integers(1, 7), max_size=3), st.integers(0, 2**31))
def test_combo_ids_are_the_inverse_of_unique(n: int, m: int, n_values: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    bucket = rng.integers(0, m, n)
    bucket[0] = m - 1
    others = [rng.integers(0, nv, n) for nv in n_values]
    key = np.stack([bucket, *others], axis=1)
    _, inv = np.unique(key, axis=0, return_inverse=True)
    assert np.array_equal(_combos(bucket, others, n_values, m), inv.ravel())


def test_combo_ids_of_a_sparse_key_range_take_the_sorting_path() -> None:
    bucket = np.array([1, 0, 1, 0, 2], dtype=np.int64)
    others = [np.array([10**6, 3, 10**6, 5, 0], dtype=np.int64)]
    assert _combos(bucket, others, [10**6 + 1], 3).tolist() == [2, 0, 2, 1, 3]


@settings(max_examples=150, deadline=None)
@given(_ROWS, st.sampled_from([1, 5, 300, 70_000]), st.integers(0, 3), st.integers(0, 2**31))
def test_rows_grouped_by_code_keep_the_priority_order(n: int, n_codes: int, starving: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, n_codes, n)
    starv = rng.integers(0, starving + 1, n)
    by_prio = np.argsort(-starv, kind="stable")
    prio = np.empty(n, dtype=np.int64)
    prio[np.lexsort((np.arange(n), -starv))] = np.arange(n)  # the priority as the sequential rule states it
    assert np.array_equal(prio[by_prio], np.arange(n))
    rows, start, counts = _grouped(by_prio, codes, n_codes)
    assert np.array_equal(rows, np.lexsort((prio, codes)))
    assert np.array_equal(counts, np.bincount(codes, minlength=n_codes))
    assert np.array_equal(start, np.concatenate([[0], np.cumsum(counts)[:-1]]))
    assert np.array_equal(_stable_order(codes, n_codes), np.argsort(codes, kind="stable"))
    for b in range(min(n_codes, 20)):  # the first k rows of a code in priority order, as the seeds take them
        k = int(counts[b])
        assert np.array_equal(rows[start[b] : start[b] + k], by_prio[codes[by_prio] == b][:k])


@settings(max_examples=60, deadline=None)
@given(st.integers(8, 200), st.integers(2, 6), st.integers(2, 4), st.integers(0, 2**31))
def test_forming_without_starvation_equals_forming_with_equal_starvation(
    n: int, m: int, l: int, seed: int
) -> None:
    """No starvation and the same starvation everywhere are the same priority (the row index): the
    shortcut for the one and the sort for the other form the same groups."""
    rng = np.random.default_rng(seed)
    bucket = rng.integers(0, m, n)
    bucket[:m] = np.arange(m)
    other = rng.integers(0, 4, n)
    plain = form_groups(bucket, [other], [4], l)
    starved = form_groups(bucket, [other], [4], l, starvation=np.full(n, 3))
    assert np.array_equal(plain.gid, starved.gid)


@settings(max_examples=80, deadline=None)
@given(st.integers(4, 300), st.integers(1, 300), st.integers(0, 2), st.integers(2, 4), st.integers(0, 2**31))
def test_a_bucket_of_one_combo_forms_the_groups_the_ranking_forms(
    n: int, m: int, k: int, l: int, seed: int
) -> None:
    """The shortcut for a bucket of one combo (every bucket where the SA is the only one, or where the
    other SAs hold one value) gives the groups and rounds of the general ranking."""
    import ldiv_db.algorithms.decomposition.forming as forming
    from ldiv_db.algorithms.decomposition.ranking import Heads, take_ranked

    rng = np.random.default_rng(seed)
    bucket = np.unique(rng.integers(0, m, n), return_inverse=True)[1].astype(np.int64)
    n_values = [int(rng.integers(1, 3)) for _ in range(k)]
    others = [rng.integers(0, nv, n).astype(np.int64) for nv in n_values]
    fast = form_groups(bucket, others, n_values, l)
    original = forming._take
    try:
        forming._take = lambda gs, j, cb, heads, pool: take_ranked(gs, j, heads or Heads(cb, pool), pool)  # type: ignore[assignment]
        slow = form_groups(bucket, others, n_values, l)
    finally:
        forming._take = original  # type: ignore[assignment]
    assert np.array_equal(fast.gid, slow.gid) and fast.rounds == slow.rounds


def test_an_sa_with_a_value_per_row_forms_groups_in_linear_time() -> None:
    """100,000 rows of distinct SA values: well under a second here (the seeds' and positions' scans over
    every group per bucket took 13 s and grew with the square of the rows)."""
    import time

    n = 100_000
    t0 = time.perf_counter()
    f = form_groups(np.arange(n, dtype=np.int64), [], [], 2)
    elapsed = time.perf_counter() - t0
    assert f.new_groups == n // 2 and np.bincount(f.gid).tolist() == [2] * (n // 2)
    assert elapsed < 6.0, f"group forming took {elapsed:.1f} s"


def _two_sa(n: int, skewed: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A primary SA of two values (one in a quarter of the rows when skewed) and an SA of a value per row."""
    rows = np.random.default_rng(5).permutation(n)
    bucket = (rows % 4 != 0) if skewed else (rows % 2 == 1)
    bucket = bucket.astype(np.int64)
    return bucket ^ bucket[0], np.arange(n, dtype=np.int64)


def _brute_force(
    bucket: np.ndarray, other: np.ndarray, l: int, starv: np.ndarray, threshold: int
) -> np.ndarray:
    """Group forming as the dense ranking and incorporation price it: every group against every combo
    (penalties as a matrix; rounds over the groups without a row), every starved row against every group."""
    from ldiv_db.algorithms.decomposition import forming

    n, m = len(bucket), int(bucket.max()) + 1
    plan = forming.max_l_schedule(np.bincount(bucket).tolist(), l).plan()
    prio = np.argsort(np.argsort(-starv, kind="stable"), kind="stable")
    gid = np.full(n, -1, dtype=np.int64)
    for g, b in enumerate(plan[:, 0].tolist()):  # seeds: in group order, by priority
        free = np.nonzero((bucket == b) & (gid < 0))[0]
        gid[free[np.argmin(prio[free])]] = g
    for j in range(1, l):
        for b in range(m):
            gs = np.nonzero(plan[:, j] == b)[0]
            batch = max(1, forming.MATRIX_CELLS // len(np.unique(other[bucket == b])))
            for c0 in range(0, len(gs), batch):
                _brute_batch(gs[c0 : c0 + batch], b, bucket, other, prio, gid)
    starved = np.nonzero((gid < 0) & (starv > threshold))[0]
    starved = starved[np.lexsort((starved, -starv[starved]))]
    groups = len(plan)
    for c0 in range(0, len(starved) if groups else 0, 64):
        rows = starved[c0 : c0 + 64]
        size = np.bincount(gid[gid >= 0], minlength=groups)
        has = np.array([[(bucket[(gid == g)] == bucket[r]).any() for g in range(groups)] for r in rows])
        pen = np.array([[(other[(gid == g)] == other[r]).any() for g in range(groups)] for r in rows])
        gid[rows] = np.argmin((has * 2 + pen) * (n + 1) + size, axis=1)
    return gid


def _brute_batch(
    gs: np.ndarray, b: int, bucket: np.ndarray, other: np.ndarray, prio: np.ndarray, gid: np.ndarray
) -> None:
    combos = np.unique(other[bucket == b]).tolist()
    left = {
        v: sorted(np.nonzero((bucket == b) & (other == v) & (gid < 0))[0].tolist(), key=lambda r: prio[r])
        for v in combos
    }
    ranked = sorted((v for v in left if left[v]), key=lambda v: prio[left[v][0]])
    held = {g: set(other[gid == g].tolist()) for g in gs.tolist()}
    prefs = {g: sorted(ranked, key=lambda v: v in held[g]) for g in held}  # stable: by head among equals
    todo = gs.tolist()
    while todo:
        asks: dict[int, list[int]] = {}
        for g in todo:
            asks.setdefault(next(v for v in prefs[g] if left[v]), []).append(g)
        served = set()
        for v, askers in asks.items():
            for g in askers[: len(left[v])]:
                gid[left[v].pop(0)] = g
                served.add(g)
        todo = [g for g in todo if g not in served]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 80), st.integers(1, 6), st.integers(1, 12), st.integers(2, 3), st.integers(0, 2**31))
def test_sparse_ranking_and_incorporation_match_the_dense_pricing(
    n: int, m: int, nv: int, l: int, seed: int
) -> None:
    """The cohort ranking and the walked incorporation form the groups the groups × combos and rows ×
    groups matrices formed, batches and chunks included."""
    from ldiv_db.algorithms.decomposition import forming

    rng = np.random.default_rng(seed)
    bucket = np.unique(rng.integers(0, m, n), return_inverse=True)[1].astype(np.int64)
    other = rng.integers(0, nv, n).astype(np.int64)
    starv = rng.integers(0, 3, n).astype(np.int64)
    original = forming.MATRIX_CELLS
    forming.MATRIX_CELLS = int(rng.choice([7, 40, 4_000_000]))
    try:
        f = form_groups(bucket, [other], [nv], l, starvation=starv, threshold=0)
        want = _brute_force(bucket, other, l, starv, 0)
    finally:
        forming.MATRIX_CELLS = original
    assert f.gid.tolist() == want.tolist()


def test_groups_that_rank_the_combos_alike_take_their_rows_in_a_round_per_batch() -> None:
    """Issue 57: where every combo has one row and every group ranks them alike (an SA of a value per row
    beside a primary SA of two values), the rounds served one group each: 10,000 rounds at 20,000 rows,
    each over every group still waiting."""
    from ldiv_db.algorithms.decomposition.forming import MATRIX_CELLS

    n = 20_000
    bucket, other = _two_sa(n)
    f = form_groups(bucket, [other], [n], 2)
    batches = -(-f.new_groups * (n // 2) // MATRIX_CELLS)
    assert f.new_groups == n // 2 and (f.gid >= 0).all()
    assert f.rounds <= batches + 1, f.rounds


@pytest.mark.parametrize("skewed", [False, True])
def test_forming_holds_no_value_set_per_group_and_value(skewed: bool) -> None:
    """Issue 57: forming and incorporation held a bitset of every value of each non-primary SA per group
    (groups × values / 64 words: 225 MB at 60,000 rows of an SA with a value per row, 112 MB skewed); their
    memory stays linear in the rows (a few arrays and a set per value)."""
    n = 60_000
    bucket, other = _two_sa(n, skewed)
    starv = np.zeros(n, dtype=np.int64)
    f, peak = traced_peak(
        lambda: form_groups(bucket, [other], [n], 2, starvation=starv, threshold=-1 if skewed else None)
    )
    assert (f.gid >= 0).all() and f.incorporated == (n // 2 if skewed else 0)
    assert peak < 1000 * n, f"peak {peak / 2**20:.0f} MiB"


def test_incorporation_walks_past_the_groups_it_skips_not_every_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 57: every starved row was priced against every group (20,000 rows × 10,000 groups here, 2e8
    cells through ``np.argmin``); a row whose primary value every group holds and whose other value none
    does takes the first group in (size, id) order, found without pricing every group."""
    priced: list[int] = []
    argmin = np.argmin

    def counted(a: np.ndarray, *args: object, **kwargs: object) -> object:
        priced.append(np.size(a))
        return argmin(a, *args, **kwargs)  # type: ignore[call-overload]

    n = 40_000
    bucket, other = _two_sa(n, skewed=True)
    monkeypatch.setattr(np, "argmin", counted)
    f = form_groups(bucket, [other], [n], 2, starvation=np.zeros(n, dtype=np.int64), threshold=-1)
    monkeypatch.undo()
    assert f.incorporated == n // 2 and (f.gid >= 0).all()
    assert sum(priced) <= n, sum(priced)
