"""l+-Optimize on random small tables and taxonomies (≤ 5,000 cuts) against the independent brute force of
tests/reference/lplus_oracle.py: the optimum cost for every allowed metric × scheme, LB ≤ the true minimum
of what it covers at every node and locking stage, visited + pruned = all cuts, top-h = the h best costs,
and the full-domain optimum never better than the full-subtree one."""

from __future__ import annotations

import itertools
import os
from fractions import Fraction as F

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.lplus.engine import Search
from ldiv_db.algorithms.lplus.problem import ALLOWED, Taxonomy
from tests.reference.lplus_oracle import Row, Tax, brute_force, optimum
from tests.unit.lplus_fixtures import preorder, to_problem
from tests.unit.test_lplus_spec import _lb_sound


@st.composite
def taxonomies(draw: st.DrawFn, prefix: str) -> Tax:
    kids: dict[str, list[str]] = {}
    counter = itertools.count()

    def grow(v: str, depth: int) -> None:
        if depth >= 3 or (depth > 0 and not draw(st.booleans())):
            return
        n = draw(st.integers(1 if depth else 2, 3))
        cs = [f"{prefix}{next(counter)}" for _ in range(n)]
        kids[v] = cs
        for c in cs:
            grow(c, depth + 1)

    grow(f"{prefix}*", 0)
    return Tax(f"{prefix}*", kids)


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[Tax], list[Row], dict[str, F]]:
    d = draw(st.integers(1, 3))
    taxes = [draw(taxonomies(chr(ord("a") + i))) for i in range(d)]
    total = 1
    for t in taxes:
        total *= len(t.cuts())
    if total > 5000:
        taxes = taxes[:1]
    m = draw(st.integers(2, 4))
    values = [f"s{i}" for i in range(m)]
    n = draw(st.integers(1, 25))
    leaves = [t.leaves(t.root) for t in taxes]
    rows: list[Row] = []
    for _ in range(n):
        leaf = tuple(draw(st.sampled_from(lv)) for lv in leaves)
        rows.append((leaf, draw(st.sampled_from(values)), draw(st.sampled_from(["x", "y", "z"]))))
    choices = [F(1, 2), F(1, 3), F(2, 3), F(1), F(3, 4), F(2, 5)]
    theta = {v: draw(st.sampled_from(choices)) for v in values}
    return taxes, rows, theta


#: examples per property; LPLUS_EXAMPLES=200 for a long run
EXAMPLES = int(os.environ.get("LPLUS_EXAMPLES", "16"))
COMBOS = [(m, s) for m, ss in ALLOWED.items() for s in ss]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from(["occurrences", "taxonomy"]))
def test_optimum_equals_brute_force(case: tuple[list[Tax], list[Row], dict[str, F]], order: str) -> None:
    taxes, rows, theta = case
    for metric, scheme in COMBOS:
        costs = brute_force(taxes, rows, theta, metric, scheme)
        expected = optimum(costs)
        problem, _ = to_problem(taxes, rows, theta, metric, scheme)
        result = Search(problem, value_order=order).run()  # type: ignore[arg-type]
        assert result.total_cuts == len(costs)
        assert result.visited + result.pruned == result.total_cuts
        if expected is None:
            assert result.cost is None, (metric, scheme)
            continue
        assert result.cost is not None and F(result.cost, result.unit) == expected, (metric, scheme)
        assert result.cut is not None
        assert Search(problem).apply(result.cut)[4] == result.cost


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_lower_bounds_are_sound(case: tuple[list[Tax], list[Row], dict[str, F]]) -> None:
    taxes, rows, theta = case
    for metric, scheme in COMBOS:
        problem, _ = to_problem(taxes, rows, theta, metric, scheme)
        _lb_sound(problem, "occurrences")


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.integers(2, 4), st.integers(0, 100))
def test_top_h(case: tuple[list[Tax], list[Row], dict[str, F]], h: int, seed: int) -> None:
    taxes, rows, theta = case
    costs = sorted(c for c in brute_force(taxes, rows, theta, "lm", "viorec").values() if c is not None)
    problem, _ = to_problem(taxes, rows, theta, "lm", "viorec")
    result = Search(problem, top_h=h, seed=seed).run()
    assert [F(c, result.unit) for c, _ in result.top] == costs[:h]
    assert result.cost is not None and F(result.cost, result.unit) in costs[:h]


def _levels(t: Tax) -> tuple[tuple[int, ...], ...]:
    """ARX levels: level k maps a leaf to its ancestor at depth H − k, a shallower leaf to itself (an ARX row
    that repeats its label), so every level is a full-subtree cut."""
    labels, parent = preorder(t)
    height = max(len(_path(labels, parent, i)) for i in range(len(labels))) - 1
    out = []
    for k in range(height + 1):
        row = []
        for i in range(len(labels)):
            path = _path(labels, parent, i)[::-1]  # root first: path[j] = ancestor at depth j
            row.append(path[min(len(path) - 1, height - k)])
        out.append(tuple(row))
    return tuple(out)


def _path(labels: list[str], parent: list[int], i: int) -> list[int]:
    out = [i]
    while parent[out[-1]] >= 0:
        out.append(parent[out[-1]])
    return out


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_full_domain_is_a_subset(case: tuple[list[Tax], list[Row], dict[str, F]]) -> None:
    taxes, rows, theta = case
    for metric, scheme in [("lm", "viorec"), ("dm", "allrec"), ("cm", "nosupp")]:
        problem, _ = to_problem(taxes, rows, theta, metric, scheme)
        problem.taxonomies = [
            Taxonomy(t.arrays, _levels(tx)) for t, tx in zip(problem.taxonomies, taxes, strict=True)
        ]
        fd = Search(problem, space="full-domain").run()
        fs = Search(problem).run()
        # exhaustive evaluation of every level combination
        brute = []
        evaluator = Search(problem, space="full-domain")
        for combo in itertools.product(*(range(len(t.levels)) for t in problem.taxonomies)):
            brute.append(evaluator.apply([(lv,) for lv in combo])[4])
        feasible = [c for c in brute if c < 1 << 62]
        if not feasible:
            assert fd.cost is None
            continue
        assert fd.cost == min(feasible)
        assert fs.cost is not None and fs.cost <= fd.cost
