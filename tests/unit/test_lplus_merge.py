"""l+-Optimize's sub-searches over merged cells (ldiv_db/algorithms/lplus/merge.py) change the work per
visit, never the search: with merging forced at every frame, the search visits the same cuts in the same
order with the same costs and bounds, and returns the same result as without merging, for every allowed
metric × scheme, in both cut spaces, with top-h, a warm start and a stop by time limit."""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.lplus import boxes, merge
from ldiv_db.algorithms.lplus.problem import INF, Problem, Taxonomy
from ldiv_db.algorithms.lplus.search import Search
from tests.reference.lplus_oracle import Row, Tax, brute_force, optimum
from tests.unit.lplus_fixtures import to_problem
from tests.unit.test_lplus_random import COMBOS, EXAMPLES, _levels, problems


def _run(
    problem: Problem, forced: bool, incumbents: Any = (), **kwargs: Any
) -> tuple[Any, list[tuple[Any, ...]], Search]:
    """The search's result and trace, with merging at every frame (``forced``) or never."""
    events: list[tuple[Any, ...]] = []
    saved = merge.MIN_CELLS, merge.CHECK_SHARE, merge.KEEP_SHARE, merge.VERIFY
    merge.MIN_CELLS, merge.CHECK_SHARE, merge.KEEP_SHARE = (0, 0.0, 1.0) if forced else (2**62, 1.0, 0.0)
    merge.VERIFY = True  # every sub-search's root re-evaluated against the running totals
    try:
        search = Search(problem, trace=lambda *e: events.append(e), **kwargs)
        return search.run(incumbents), events, search
    finally:
        merge.MIN_CELLS, merge.CHECK_SHARE, merge.KEEP_SHARE, merge.VERIFY = saved


def _same(a: Any, b: Any) -> None:
    for name in ("cost", "cut", "lower_bound", "optimal", "visited", "pruned", "total_cuts", "top"):
        assert getattr(a, name) == getattr(b, name), name


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from(sorted(COMBOS)), st.booleans())
def test_merging_changes_nothing_but_the_work(
    case: tuple[list[Tax], list[Row], dict[str, F]], combo: tuple[str, str], everything: bool
) -> None:
    taxes, rows, theta = case
    problem, _ = to_problem(taxes, rows, theta, *combo)
    plain, plain_events, _ = _run(problem, False, enumerate_all=everything)
    merged, merged_events, search = _run(problem, True, enumerate_all=everything)
    _same(merged, plain)
    assert merged_events == plain_events  # every visit and stage, in order, with its cost and bound
    if any(e[0] == "stage" for e in plain_events):  # a frame locked a value: its next stages merged
        assert search.merge_stats.merges >= 1
    expected = optimum(brute_force(taxes, rows, theta, *combo))
    assert (None if merged.cost is None else F(merged.cost, merged.unit)) == expected


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from(sorted(COMBOS)), st.booleans())
def test_merging_in_the_full_domain_space(
    case: tuple[list[Tax], list[Row], dict[str, F]], combo: tuple[str, str], everything: bool
) -> None:
    """The full-domain search (one level per attribute; the warm start) merges the same way: a locked
    attribute keeps its level's node for every cell."""
    taxes, rows, theta = case
    problem, _ = to_problem(taxes, rows, theta, *combo)
    problem.taxonomies = [
        Taxonomy(t.arrays, _levels(tx)) for t, tx in zip(problem.taxonomies, taxes, strict=True)
    ]
    plain, plain_events, _ = _run(problem, False, space="full-domain", enumerate_all=everything)
    merged, merged_events, search = _run(problem, True, space="full-domain", enumerate_all=everything)
    _same(merged, plain)
    assert merged_events == plain_events
    if any(e[0] == "stage" for e in plain_events):
        assert search.merge_stats.merges >= 1
    levels = itertools.product(*(range(len(t.levels)) for t in problem.taxonomies))
    evaluator = Search(problem, space="full-domain")
    costs = [evaluator.apply([(lv,) for lv in combo])[4] for combo in levels]
    feasible = [c for c in costs if c < INF]
    assert merged.cost == (min(feasible) if feasible else None)


def _many_cells() -> Problem:
    """Cells that merge under locked values: 3 attributes of 2 × 3 leaves, every leaf vector × 3 SA values
    in uneven counts."""
    t = Tax("*", {"*": ["x", "y"], "x": ["x1", "x2", "x3"], "y": ["y1", "y2", "y3"]})
    taxes = [t, t, t]
    leaves = ["x1", "x2", "x3", "y1", "y2", "y3"]
    rows: list[Row] = []
    for i, vec in enumerate(itertools.product(leaves, repeat=3)):
        for s in range(3):
            rows.extend([(vec, f"s{s}", "c")] * (1 + (i * 7 + s * 5) % 4))
    theta = {f"s{s}": F(1, 3) for s in range(3)}  # the optimum is inside the tree (cost 10,224 / 5)
    problem, _ = to_problem(taxes, rows, theta, "lm", "viorec")
    return problem


def test_merged_cells_are_fewer_and_the_search_is_the_same() -> None:
    """On a histogram whose cells collapse under locks, the sub-searches run on fewer cells."""
    problem = _many_cells()
    plain, plain_events, _ = _run(problem, False, value_order="taxonomy", enumerate_all=True)
    merged, merged_events, search = _run(problem, True, value_order="taxonomy", enumerate_all=True)
    _same(merged, plain)
    assert merged_events == plain_events
    stats = search.merge_stats
    assert stats.merges >= 10
    assert any(after < before for before, after in stats.cells)
    assert min(after for _, after in stats.cells) < search.C // 4


@pytest.mark.parametrize("top_h", [1, 3])
def test_top_h_and_a_warm_start_through_sub_searches(top_h: int) -> None:
    problem = _many_cells()
    plain, _, _ = _run(problem, False, top_h=top_h, seed=5)
    merged, _, search = _run(problem, True, top_h=top_h, seed=5)
    _same(merged, plain)
    assert search.merge_stats.merges >= 1
    # a warm start from a known cut that is not the best (the third best)
    third = _run(problem, False, top_h=3)[0].top[-1]
    warm_plain = _run(problem, False, incumbents=[third])[0]
    warm_merged = _run(problem, True, incumbents=[third])[0]
    _same(warm_merged, warm_plain)
    assert warm_merged.visited <= plain.visited


def test_a_stop_inside_a_sub_search_keeps_a_proven_gap(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time limit that runs out inside a sub-search stops the whole search, with the open frames'
    bounds (the sub-search's among them) proving the gap, as without merging. The search's clock is a
    counter of its own readings, so both runs stop at the same visit."""
    import ldiv_db.algorithms.lplus.search as engine

    monkeypatch.setattr(boxes, "MAX_POINTS", 0)  # the boxes' bound ends this search before the stop
    problem = _many_cells()
    results = []
    for forced in (False, True):
        clock = itertools.count()
        monkeypatch.setattr(engine, "time", SimpleNamespace(perf_counter=lambda c=clock: float(next(c))))
        sizes = (0, 0.0, 1.0) if forced else (2**62, 1.0, 0.0)
        for name, value in zip(("MIN_CELLS", "CHECK_SHARE", "KEEP_SHARE"), sizes, strict=True):
            monkeypatch.setattr(merge, name, value)
        search = Search(problem, value_order="taxonomy", time_limit=40.0)
        results.append((search.run(), search.merge_stats.merges))
    (plain, _), (merged, merges) = results
    assert plain.timed_out and merged.timed_out and merges >= 1
    for name in ("cost", "cut", "lower_bound", "optimal", "visited", "pruned"):
        assert getattr(merged, name) == getattr(plain, name), name
    assert merged.lower_bound is not None and merged.cost is not None
    assert merged.lower_bound <= merged.cost


def test_effective_keys_put_cells_under_a_locked_node_together() -> None:
    problem = _many_cells()
    search = Search(problem)
    assert np.unique(merge.effective_keys(search)).size == search.C  # nothing locked: every cell apart
    root_a = (0, 0)
    search._specialize(root_a)  # attribute 0 at {x, y}
    x = search.trees[0].children[0][0]
    search._lock((0, x))
    keys = merge.effective_keys(search)
    assert keys is not None
    # the cells under x differ in attribute 0's leaf only: the lock leaves a third of them
    under = search._cells(0, x)
    assert np.unique(keys[under]).size * 3 == under.size


def test_a_sub_search_owns_its_cells_and_its_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sub-search is a shallow copy of its parent: every per-cell array must be its own (none of the
    parent's length is left behind), and so must its cut and open flags, which it changes."""
    pairs: list[tuple[Search, Search]] = []
    real = merge._sub_search

    def recording(s: Search, codes: Any, n: int) -> Search:
        sub = real(s, codes, n)
        pairs.append((s, sub))
        return sub

    monkeypatch.setattr(merge, "_sub_search", recording)
    _run(_many_cells(), True, value_order="taxonomy")
    shrunk = [(s, sub) for s, sub in pairs if sub.C < s.C]
    assert shrunk
    for s, sub in shrunk:
        for name, value in vars(sub).items():
            if isinstance(value, np.ndarray) and value.ndim and value.shape[-1] == s.C:
                raise AssertionError(f"{name} still has the parent's {s.C} cells")
        assert sub.cut is not s.cut and all(a is not b for a, b in zip(sub.cut, s.cut, strict=True))
        assert all(a is not b for a, b in zip(sub.open_node, s.open_node, strict=True))
        assert sub.heap is s.heap and sub.frames is s.frames  # shared: the incumbents and open frames
