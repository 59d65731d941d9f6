"""l+-Optimize on random small tables and taxonomies (≤ 5,000 cuts) against the independent brute force of
tests/reference/lplus_oracle.py: the optimum cost for every allowed metric × scheme, LB ≤ the true minimum
of what it covers at every node and locking stage, visited + pruned = all cuts, top-h = the h best costs,
and the full-domain optimum never better than the full-subtree one."""

from __future__ import annotations

import itertools
import os
from fractions import Fraction as F

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.lplus.problem import ALLOWED, Taxonomy
from ldiv_db.algorithms.lplus.search import Search
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
def problems(draw: st.DrawFn, max_cuts: int = 5000) -> tuple[list[Tax], list[Row], dict[str, F]]:
    """A random problem of one to three taxonomies; past ``max_cuts`` cuts only the first taxonomy is kept
    (one taxonomy has at most 730). The oracle prices every cut, so its time grows with their number."""
    d = draw(st.integers(1, 3))
    taxes = [draw(taxonomies(chr(ord("a") + i))) for i in range(d)]
    total = 1
    for t in taxes:
        total *= len(t.cuts())
    if total > max_cuts:
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


#: the bound on the cuts for the properties that run the oracle and the search for every combination of
#: metric and scheme: the oracle prices every cut each time, so its work grows with their number
SMALL_CUTS = 600

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


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=40),
    st.lists(st.integers(0, 39), min_size=0, max_size=400),
)
def test_grouping_order_sorts_the_keys(values: list[int], picks: list[int]) -> None:
    """The search's grouping permutation (hashed codes, ranks of the distinct keys, a 16-bit radix sort)
    is a permutation that sorts the keys, whichever path it takes."""
    import numpy as np

    from ldiv_db.algorithms.lplus import partitions

    keys = np.array([values[i % len(values)] for i in picks] or values, dtype=np.int64)
    saved = partitions.FAST_GROUPING_MIN, partitions.FAST_GROUPING_SHARE
    for low, share in [(0, 1.0), (0, 0.5), saved]:
        partitions.FAST_GROUPING_MIN, partitions.FAST_GROUPING_SHARE = low, share
        try:
            order = partitions.grouping_order(keys)
        finally:
            partitions.FAST_GROUPING_MIN, partitions.FAST_GROUPING_SHARE = saved
        assert np.array_equal(np.sort(order), np.arange(keys.size))
        assert np.array_equal(keys[order], np.sort(keys))


def test_many_distinct_keys_are_told_from_a_sample() -> None:
    """The sample that skips hashing (``_many_distinct``) says yes for 300,000 keys of 150,000 values in
    any order, no for 20,000 values, for 30 values, and for 300,000 distinct keys of which a third repeat
    one value (uneven keys repeat more in the sample); the grouping sorts the keys either way."""
    import numpy as np

    from ldiv_db.algorithms.lplus import partitions

    rng = np.random.default_rng(3)
    spread = rng.integers(0, 150_000, 300_000) * 7919
    assert partitions._many_distinct(spread) and partitions._many_distinct(np.sort(spread))
    assert not partitions._many_distinct(rng.integers(0, 20_000, 300_000))
    assert not partitions._many_distinct(np.sort(rng.integers(0, 30, 300_000)))
    uneven = np.arange(300_000)
    uneven[rng.random(300_000) < 0.34] = 5
    assert not partitions._many_distinct(uneven)
    for keys in (spread, uneven):
        assert np.array_equal(keys[partitions.grouping_order(keys)], np.sort(keys))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(SMALL_CUTS))
def test_fast_grouping_changes_no_search_and_no_release(
    case: tuple[list[Tax], list[Row], dict[str, F]],
) -> None:
    """The search's evaluations group cells by the fast permutation (forced here on every key array) and
    the release's evaluation by ``np.argsort``: the optimum, the counts of visited and pruned cuts and
    the release (partition, deleted rows and suppressed SA per cell) are those of ``np.argsort``
    everywhere, and the optimum is still the brute force's."""
    import numpy as np

    from ldiv_db.algorithms.lplus import partitions

    taxes, rows, theta = case
    saved = partitions.FAST_GROUPING_MIN, partitions.FAST_GROUPING_SHARE, partitions.grouping_order
    for metric, scheme in COMBOS:
        problem, _ = to_problem(taxes, rows, theta, metric, scheme)
        runs = []
        for fast in (True, False):
            if fast:
                partitions.FAST_GROUPING_MIN, partitions.FAST_GROUPING_SHARE = 0, 1.0
            else:
                partitions.grouping_order = np.argsort  # type: ignore[assignment]
            try:
                result = Search(problem).run()
                release = Search(problem).apply(result.cut) if result.cut is not None else None
            finally:
                partitions.FAST_GROUPING_MIN, partitions.FAST_GROUPING_SHARE, partitions.grouping_order = (
                    saved
                )
            runs.append((result, release))
        (fast_r, fast_rel), (plain_r, plain_rel) = runs
        assert (fast_r.cost, fast_r.cut, fast_r.visited, fast_r.pruned) == (
            plain_r.cost,
            plain_r.cut,
            plain_r.visited,
            plain_r.pruned,
        ), (metric, scheme)
        if fast_rel is None or plain_rel is None:
            assert fast_rel is plain_rel is None
            continue
        for x, y in zip(fast_rel, plain_rel, strict=True):
            assert np.array_equal(np.asarray(x, dtype=object), np.asarray(y, dtype=object)), (metric, scheme)
        expected = optimum(brute_force(taxes, rows, theta, metric, scheme))
        assert (fast_r.cost is None) == (expected is None)
        if expected is not None:
            assert fast_r.cost is not None and F(fast_r.cost, fast_r.unit) == expected


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from(["full-subtree", "full-domain"]))
def test_search_keeps_node_ids_narrow_and_flags_boolean(
    case: tuple[list[Tax], list[Row], dict[str, F]], space: str
) -> None:
    """Memory at scale: the search holds its per-cell node ids in 32 bits and its feasibility flags as
    booleans, however wide the histogram's ids (64-bit here), and still finds the optimum (full-subtree:
    the brute force's; full-domain: the least of every level combination evaluated)."""
    taxes, rows, theta = case
    problem, _ = to_problem(taxes, rows, theta, "dm", "allrec")
    problem.taxonomies = [
        Taxonomy(t.arrays, _levels(tx)) for t, tx in zip(problem.taxonomies, taxes, strict=True)
    ]
    assert problem.leaf.dtype == np.int64
    search = Search(problem, space=space)  # type: ignore[arg-type]
    assert search.leaf.dtype == search.g.dtype == np.int32
    assert search.ci.dtype == search.li.dtype == np.bool_
    result = search.run()
    assert search.g.dtype == np.int32  # backtracking restores 32-bit ids
    assert result.cost is not None and result.cut is not None
    evaluator = Search(problem, space=space)  # type: ignore[arg-type]
    assert evaluator.apply(result.cut)[4] == result.cost
    if space == "full-subtree":
        assert F(result.cost, result.unit) == optimum(brute_force(taxes, rows, theta, "dm", "allrec"))
    else:
        levels = itertools.product(*(range(len(t.levels)) for t in problem.taxonomies))
        assert result.cost == min(evaluator.apply([(lv,) for lv in combo])[4] for combo in levels)


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from(sorted(COMBOS)))
def test_backtracking_restores_the_root_exactly(
    case: tuple[list[Tax], list[Row], dict[str, F]], combo: tuple[str, str]
) -> None:
    """Every node the search visits saves what it changes (a frame keeps the touched partitions' values,
    not every touched cell's) and restores it on the way back: after the whole search every cell holds
    its root node, partition key and partition values again, as a fresh search evaluating the root has them."""
    taxes, rows, theta = case
    problem, _ = to_problem(taxes, rows, theta, *combo)
    searched = Search(problem)
    searched.run()
    fresh = Search(problem)
    fresh._eval(fresh.all_cells)
    for name in ("g", "ks", "spec", "gc", "gs", "cc", "ci", "lc", "li"):
        assert np.array_equal(getattr(searched, name), getattr(fresh, name)), name


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from(["full-subtree", "full-domain"]))
def test_kept_spec_sizes_match_a_fresh_count(
    case: tuple[list[Tax], list[Row], dict[str, F]], space: str
) -> None:
    """DM's bound reads each cell's Cut_spec sub-partition size from an array the locks keep up to date
    (spec_sizes.py): at every visited cut and stage it equals the rows of the cells with the cell's image,
    counted afresh with a dictionary; after the search the root's sizes are back."""
    taxes, rows, theta = case
    for scheme in ("allrec", "viorec", "nosupp"):
        problem, _ = to_problem(taxes, rows, theta, "dm", scheme)
        if space == "full-domain":
            problem.taxonomies = [Taxonomy.of(preorder(t)[1], levels=_levels(t)) for t in taxes]
        _sizes_kept(problem, space)


def _fresh_sizes(s: Search) -> list[int]:
    rows_of: dict[int, int] = {}
    for image, n in zip(s.spec.tolist(), s.cnt.tolist(), strict=True):
        rows_of[image] = rows_of.get(image, 0) + n
    return [rows_of[image] for image in s.spec.tolist()]


def _sizes_kept(problem, space: str) -> None:  # type: ignore[no-untyped-def]
    checked: list[str] = []
    search: Search | None = None

    def trace(kind: str, depth: int, cost: int, lb: int) -> None:
        assert search is not None and search.sizes is not None
        assert search.sizes.size.tolist() == _fresh_sizes(search)
        checked.append(kind)

    search = Search(problem, space=space, trace=trace, enumerate_all=True)  # type: ignore[arg-type]
    root = _fresh_sizes(search)
    search.run()
    assert search.sizes is not None and search.sizes.size.tolist() == root
    assert "visit" in checked
