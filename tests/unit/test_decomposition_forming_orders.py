"""Decomposition+ group forming's row orders (SPEC §4.2, §4.3) against the sorts they stand for: the
combo ids are ``np.unique``'s inverse, the rows by (combo, priority) and by (bucket, priority) are
``np.lexsort``'s, and the priority is the most starved first, then the row index."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.decomposition.forming import _combos, _grouped, _stable_order, form_groups

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

    rng = np.random.default_rng(seed)
    bucket = np.unique(rng.integers(0, m, n), return_inverse=True)[1].astype(np.int64)
    n_values = [int(rng.integers(1, 3)) for _ in range(k)]
    others = [rng.integers(0, nv, n).astype(np.int64) for nv in n_values]
    fast = form_groups(bucket, others, n_values, l)
    ranked = forming._take_ranked
    original = forming._take
    try:
        forming._take = lambda gs, cb, pool: ranked(gs, cb, pool, pool.counts[cb] - pool.ptr[cb])  # type: ignore[assignment]
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
