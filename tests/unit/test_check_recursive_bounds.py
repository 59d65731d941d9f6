"""A check's table-level recursive (c,l) bounds (``CheckResult.recursive``): per l from 2 to the weakest
SA's distinct l, the largest c_above over the SAs — compared with that definition written out, on random
SAs, and taken in one pass over the bounds (a class of thousands of values has a bound per l)."""

from __future__ import annotations

import random
import time
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.core.stats import PartitionSummary, RecursiveBound
from ldiv_db.verify.check import CheckResult, SaStats


def _result(per_sa: list[tuple[int, list[RecursiveBound]]]) -> CheckResult:
    stats = [
        SaStats(f"s{i}", PartitionSummary(0, 1, 1, 1, distinct, None, None), bounds)
        for i, (distinct, bounds) in enumerate(per_sa)
    ]
    return CheckResult(table="t", keys=["q"], sa=[s.name for s in stats], rows=1, groups=1, k=1, per_sa=stats)


def _by_definition(result: CheckResult) -> list[RecursiveBound]:
    top = min(s.summary.distinct_l for s in result.per_sa)
    out = []
    for l_value in range(2, top + 1):
        bounds = [b.c_above for s in result.per_sa for b in s.recursive if b.l == l_value]
        if bounds:
            out.append(RecursiveBound(l_value, max(bounds)))
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4))
def test_the_bounds_are_the_largest_per_l_up_to_the_weakest_distinct_l(seeds: list[int]) -> None:
    per_sa = []
    for seed in seeds:
        rng = random.Random(seed)
        distinct = rng.randint(1, 12)
        ls = [rng.randint(1, 14) for _ in range(rng.randint(0, 16))]  # some outside 2..distinct, repeats
        per_sa.append(
            (distinct, [RecursiveBound(l, Fraction(rng.randint(0, 30), rng.randint(1, 6))) for l in ls])
        )
    result = _result(per_sa)
    assert result.recursive == _by_definition(result)


def test_thousands_of_values_take_one_pass() -> None:
    n = 20_000  # by the definition written out: n² = 4·10⁸ comparisons, minutes
    bounds = [RecursiveBound(l, Fraction(n - l, l)) for l in range(2, n + 1)]
    result = _result([(n, bounds), (n, bounds[::-1])])
    t0 = time.perf_counter()
    got = result.recursive
    assert time.perf_counter() - t0 < 5.0
    assert [b.l for b in got] == list(range(2, n + 1))
    assert got[0] == RecursiveBound(2, Fraction(n - 2, 2))
