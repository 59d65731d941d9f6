"""BSGI's closed-form Max-l schedule (SPEC §2.1–2.3): equal to the literal iteration, and Theorem 1
(Max-l creates the maximum number of groups of l distinct values) checked by brute force."""

from __future__ import annotations

import functools
import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.shared.schedule import max_l_schedule


def literal_max_l(sizes: list[int], l: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """Fig. 1/2 literally: re-sort by (-size, first appearance) before every Select."""
    s = list(sizes)
    out = []
    while sum(1 for x in s if x > 0) >= l:
        order = sorted((b for b in range(len(s)) if s[b] > 0), key=lambda b: (-s[b], b))[:l]
        out.append(tuple(order))
        for b in order:
            s[b] -= 1
    return out, s


@functools.cache
def max_groups(sizes: tuple[int, ...], l: int) -> int:
    """Brute force: the most disjoint groups of l rows from l distinct buckets."""
    live = [b for b, n in enumerate(sizes) if n > 0]
    best = 0
    for combo in itertools.combinations(live, l):
        rest = list(sizes)
        for b in combo:
            rest[b] -= 1
        best = max(best, 1 + max_groups(tuple(sorted(rest, reverse=True)), l))
    return best


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=8), st.integers(1, 5))
def test_schedule_equals_the_literal_iteration(sizes: list[int], l: int) -> None:
    sch = max_l_schedule(sizes, l)
    classes, residual = literal_max_l(sizes, l)
    assert list(sch.classes_of()) == classes
    assert list(sch.residual) == residual
    assert sch.classes == len(classes)
    assert sch.residual_rows == sum(residual)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=5), st.integers(2, 3))
def test_theorem_1_max_l_creates_the_most_groups(sizes: list[int], l: int) -> None:
    assert max_l_schedule(sizes, l).classes == max_groups(tuple(sorted(sizes, reverse=True)), l)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 30), min_size=2, max_size=10), st.integers(2, 6))
def test_theorem_2_and_corollary_1(sizes: list[int], l: int) -> None:
    """l·n_1 ≤ n ⇒ fewer than l residual rows, one per bucket at most; and none iff also l | n."""
    n, n1 = sum(sizes), max(sizes)
    sch = max_l_schedule(sizes, l)
    if l * n1 <= n:
        assert sch.residual_rows < l
        assert max(sch.residual) <= 1
        assert (sch.residual_rows == 0) == (n % l == 0)


def test_adult_occupation_residuals() -> None:
    """SPEC §2.6: Max-l residuals for occupation, l = 2..7 (sizes in first-appearance order)."""
    sizes = [3721, 3992, 1350, 3212, 4038, 3584, 4030, 1572, 989, 1966, 912, 644, 143, 9]
    assert [max_l_schedule(sizes, l).residual_rows for l in range(2, 8)] == [0, 0, 2, 2, 0, 6]


def test_runs_compress_the_schedule() -> None:
    sch = max_l_schedule([5, 3, 1], 2)
    assert sch.runs[0].count == 3 and sch.runs[0].buckets == (0, 1)  # a tie run merges with its predecessor
    assert sch.runs[1].count == 1 and sch.runs[1].buckets == (0, 2)
    assert sch.classes == 4 and sch.residual_rows == 1


def _run_lengths(classes: list[tuple[int, ...]]) -> list[tuple[int, tuple[int, ...]]]:
    out: list[tuple[int, tuple[int, ...]]] = []
    for order in classes:
        if out and out[-1][1] == order:
            out[-1] = (out[-1][0] + 1, order)
        else:
            out.append((1, order))
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.integers(20, 300),
    st.lists(st.integers(0, 6), min_size=2, max_size=10),
    st.lists(st.integers(-4, 4), max_size=4),
    st.lists(st.integers(0, 3), max_size=3),
    st.integers(1, 6),
    st.randoms(use_true_random=False),
)
def test_nearly_equal_sizes_repeat_cycles_exactly(
    base: int, spread: list[int], middle: list[int], small: list[int], l: int, rnd: random.Random
) -> None:
    """Sizes close to each other (a table that barely compresses), a middle tier the top comes down to
    and joins on the way, and a few tiny buckets that run out, in any order (ties go to the first
    bucket): the cycles are repeated without iterating them, and the runs are still the literal
    iteration's, run-length encoded, and so are the residuals."""
    sizes = [base + d for d in spread] + [base // 2 + d for d in middle] + small
    rnd.shuffle(sizes)
    sch = max_l_schedule(sizes, l)
    classes, residual = literal_max_l(sizes, l)
    assert [(r.count, r.buckets) for r in sch.runs] == _run_lengths(classes)
    assert list(sch.residual) == residual


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(64, 400), min_size=1, max_size=4),
    st.integers(10, 200),
    st.lists(st.integers(-1, 1), min_size=1, max_size=6),
    st.lists(st.integers(0, 150), max_size=4),
    st.integers(1, 6),
    st.randoms(use_true_random=False),
)
def test_a_head_above_a_tie_is_simulated_apart_exactly(
    gaps: list[int], base: int, ties: list[int], rest: list[int], l: int, rnd: random.Random
) -> None:
    """A few buckets far above a tie group (Adult at 1M: three large occupations above two equal ones):
    the head is taken first while the tie cycles beneath it, simulated apart (nested: a head inside the
    rest). The runs, the plan and the residuals are the literal iteration's."""
    sizes = [base + g for g in gaps] + [base + d for d in ties] + rest
    rnd.shuffle(sizes)
    sch = max_l_schedule(sizes, l)
    classes, residual = literal_max_l(sizes, l)
    assert [(r.count, r.buckets) for r in sch.runs] == _run_lengths(classes)
    assert sch.plan().tolist() == [list(c) for c in classes]
    assert list(sch.residual) == residual


def test_the_one_million_row_occupation_schedule_is_the_literal_one() -> None:
    """bench.million's occupation bucket sizes (Adult amplified to 1M rows, l = 4), scaled down to a
    tenth: heads above ties, ties joining the top one by one."""
    sizes = [13235, 11886, 13360, 2134, 13387, 5212, 3278, 12336, 4474, 6519, 10648, 3023, 473, 29]
    sch = max_l_schedule(sizes, 4)
    classes, residual = literal_max_l(sizes, 4)
    assert sch.plan().tolist() == [list(c) for c in classes]
    assert list(sch.residual) == residual
    assert len(sch.orders) < 100 and sch.classes == len(classes)
