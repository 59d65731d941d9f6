"""The l+-Optimize climb (ldiv_db/algorithms/lplus/climb.py) and the boxes' batched recursion on random
small tables against the independent brute force of tests/reference/lplus_oracle.py: a climbed cut costs
what the oracle says and less than its start, and with pairs of moves no cut two moves away is
cheaper; the search with the climb's ceiling returns the oracle's
optimum and the very cut it returns without it; a climb that reports too low a cost is caught; the
boxes' memo and their ranked keys change no bound."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.lplus import boxes, climb
from ldiv_db.algorithms.lplus.search import Search
from tests.reference.lplus_oracle import Row, Tax, brute_force, optimum
from tests.unit.lplus_fixtures import to_problem
from tests.unit.test_lplus_random import EXAMPLES, SMALL_CUTS, problems

Case = tuple[list[Tax], list[Row], dict[str, F]]
COMBOS = [("lm", "viorec"), ("lm", "viosa"), ("lm", "allrec"), ("dm", "viorec"), ("cm", "allrec")]


def _labels(cut: tuple[tuple[int, ...], ...], names: list[list[str]]) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(names[a][v] for v in nodes) for a, nodes in enumerate(cut))


def _ids(cut: tuple[frozenset[str], ...], names: list[list[str]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(names[a].index(x) for x in nodes)) for a, nodes in enumerate(cut))


def _worst_feasible(costs: dict[tuple[frozenset[str], ...], F | None]) -> tuple[frozenset[str], ...] | None:
    """A start for the climb: the costliest feasible cut (so that a cheaper one exists, mostly)."""
    feasible = [(c, k) for k, c in costs.items() if c is not None]
    return max(feasible, key=lambda e: (e[0], sorted(map(sorted, e[1]))))[1] if feasible else None


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(SMALL_CUTS))
def test_a_climbed_cut_costs_what_the_oracle_says(case: Case) -> None:
    taxes, rows, theta = case
    for metric, scheme in COMBOS:
        costs = brute_force(taxes, rows, theta, metric, scheme)
        start = _worst_feasible(costs)
        if start is None:
            continue
        problem, names = to_problem(taxes, rows, theta, metric, scheme)
        s = Search(problem)
        start_ids = _ids(start, names)
        start_cost = climb.cut_cost(s, start_ids)
        assert F(start_cost, s.unit) == costs[start]
        found = climb.climb(s, start_ids, start_cost)
        if found is None:
            # a local minimum: no neighbour is cheaper
            assert all(
                costs[_labels(nb, names)] is None or costs[_labels(nb, names)] >= costs[start]  # type: ignore[operator]
                for nb in climb.neighbours(s, start_ids)
            )
            continue
        cost, cut = found
        assert F(cost, s.unit) == costs[_labels(cut, names)] < costs[start]  # type: ignore[operator]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(SMALL_CUTS), st.integers(0, 1000))
def test_the_ceiling_changes_neither_the_optimum_nor_the_cut(case: Case, seed: int) -> None:
    """Warm-started from a random feasible cut, the search finds the oracle's optimum, and the same cut
    with and without the climb (ties included: the ceiling is the climbed cost plus one)."""
    taxes, rows, theta = case
    rng = random.Random(seed)
    for metric, scheme in COMBOS:
        costs = brute_force(taxes, rows, theta, metric, scheme)
        feasible = sorted(
            (k for k, c in costs.items() if c is not None), key=lambda k: sorted(map(sorted, k))
        )
        if not feasible:
            continue
        problem, names = to_problem(taxes, rows, theta, metric, scheme)
        known = _ids(rng.choice(feasible), names)
        unit = Search(problem).unit
        warm = [(int(costs[_labels(known, names)] * unit), known)]  # type: ignore[operator]
        plain = Search(problem).run(warm, climbing=False)
        climbed = Search(problem).run(warm)
        assert climbed.optimal and F(climbed.cost, climbed.unit) == optimum(costs)  # type: ignore[arg-type]
        assert (climbed.cost, climbed.cut) == (plain.cost, plain.cut)
        assert climbed.visited <= plain.visited


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(SMALL_CUTS))
def test_pairs_of_moves_leave_no_cheaper_cut_two_moves_away(case: Case) -> None:
    """The climb with pairs (its A ∩ B arithmetic, and the LM floor that skips a pair) prices every cut it
    returns as the oracle does, and stops only where no cut one or two moves away is cheaper."""
    taxes, rows, theta = case
    for metric, scheme in COMBOS:
        costs = brute_force(taxes, rows, theta, metric, scheme)
        start = _worst_feasible(costs)
        if start is None:
            continue
        problem, names = to_problem(taxes, rows, theta, metric, scheme)
        s = Search(problem)
        start_ids = _ids(start, names)
        found = climb.climb(s, start_ids, climb.cut_cost(s, start_ids), pairs=True)
        end = start if found is None else _labels(found[1], names)
        if found is not None:
            assert F(found[0], s.unit) == costs[end] < costs[start]  # type: ignore[operator]
        end_ids = _ids(end, names)
        for nb in climb.neighbours(s, end_ids):
            for near in (nb, *climb.neighbours(s, nb)):
                c = costs[_labels(near, names)]
                assert c is None or c >= costs[end]  # type: ignore[operator]


def _two_move_case() -> tuple[Search, tuple[tuple[int, ...], ...], int, int]:
    """Two attributes of depth 2, 14 rows (seed 1), LM/vioRec: from the root, single moves stop at a
    cut of cost 58; a cut two moves from it costs 56."""
    a = Tax("a*", {"a*": ["a1", "a2"], "a1": ["a3", "a4"], "a2": ["a5", "a6"]})
    b = Tax("b*", {"b*": ["b1", "b2"], "b1": ["b3", "b4"], "b2": ["b5", "b6"]})
    rng = random.Random(1)
    rows: list[Row] = [
        (
            (rng.choice(["a3", "a4", "a5", "a6"]), rng.choice(["b3", "b4", "b5", "b6"])),
            rng.choice(["s0", "s1", "s2"]),
            None,
        )
        for _ in range(rng.randint(10, 30))
    ]
    theta = {v: F(1, 2) for v in ("s0", "s1", "s2")}
    costs = brute_force([a, b], rows, theta, "lm", "viorec")
    problem, names = to_problem([a, b], rows, theta, "lm", "viorec")
    s = Search(problem)
    root = _ids((frozenset({"a*"}), frozenset({"b*"})), names)
    return s, root, int(costs[_labels(root, names)] * s.unit), int(optimum(costs) * s.unit)  # type: ignore[operator]


def test_pairs_of_moves_leave_a_local_minimum_of_single_moves() -> None:
    s, root, cost, best = _two_move_case()
    single = climb.climb(s, root, cost)
    paired = climb.climb(s, root, cost, pairs=True)
    assert single is not None and paired is not None
    assert paired[0] < single[0]
    assert paired[0] == climb.cut_cost(s, paired[1]) >= best


@pytest.mark.parametrize("at", [2, 3, 5])
def test_climbing_again_changes_neither_the_optimum_nor_the_cut(
    monkeypatch: pytest.MonkeyPatch, at: int
) -> None:
    """The climb with pairs run at a visit of the search (from the best cut known then) lowers the ceiling
    to a cut single moves do not reach; the search returns the cut it returns without any climb."""
    s, root, cost, best = _two_move_case()
    plain = Search(s.p).run([(cost, root)], climbing=False)
    monkeypatch.setattr(climb, "AGAIN_AT", at)
    search = Search(s.p)
    climbed = search.run([(cost, root)])
    assert (climbed.cost, climbed.cut) == (plain.cost, plain.cut) and climbed.cost == best
    assert climbed.visited <= plain.visited
    single = climb.climb(s, root, cost)
    assert single is not None and search.climbed is not None
    assert search.ceiling == search.climbed[0] + 1 and search.climbed[0] < single[0]


def test_only_lm_climbs_again() -> None:
    """DM and CM have no floor to skip pairs by: their searches never climb again."""
    s, root, _, _ = _two_move_case()
    for metric in ("lm", "dm"):
        search = Search(dataclasses.replace(s.p, metric=metric))
        search.run([(climb.cut_cost(search, root), root)])
        assert search.again_at == (climb.AGAIN_AT if metric == "lm" else -1)


def test_a_climb_that_reports_too_low_a_cost_is_not_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A climbed cost below every cut's (as a disagreement between the climb's and the search's
    arithmetic would give) leaves the search without a cut under its ceiling: it searches again without
    it and still returns the optimum."""
    a = Tax("a*", {"a*": ["a0", "a1", "a2"]})
    b = Tax("b*", {"b*": ["b0", "b1"]})
    rng = random.Random(3)
    rows: list[Row] = [
        ((rng.choice(["a0", "a1", "a2"]), rng.choice(["b0", "b1"])), rng.choice(["s0", "s1", "s2"]), None)
        for _ in range(40)
    ]
    theta = {v: F(1, 2) for v in ("s0", "s1", "s2")}
    costs = brute_force([a, b], rows, theta, "lm", "viorec")
    problem, names = to_problem([a, b], rows, theta, "lm", "viorec")
    root = _ids((frozenset({"a*"}), frozenset({"b*"})), names)
    unit = Search(problem).unit
    warm = [(int(costs[_labels(root, names)] * unit), root)]  # type: ignore[operator]
    monkeypatch.setattr(climb, "climb", lambda s, cut, cost, pairs=False: (-1, cut))
    result = Search(problem).run(warm)
    assert result.optimal and F(result.cost, result.unit) == optimum(costs)  # type: ignore[arg-type]


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_ranked_box_keys_give_the_same_bounds(case: Case) -> None:
    """The boxes' keys ranked (as when the point's number would overflow them) give every node and stage
    the same lower bound as the plain keys."""
    taxes, rows, theta = case
    for metric, scheme in [("lm", "viorec"), ("dm", "allrec"), ("lm", "viosa")]:
        problem, _ = to_problem(taxes, rows, theta, metric, scheme)
        traces = []
        for limit in (boxes.KEY_LIMIT, 1):
            events: list[tuple[str, int, int, int]] = []
            with pytest.MonkeyPatch.context() as m:
                m.setattr(boxes, "KEY_LIMIT", limit)
                Search(problem, enumerate_all=True, trace=lambda *e, ev=events: ev.append(e)).run()
            traces.append(events)
        assert traces[0] == traces[1]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(-(2**50), 2**50), st.integers(-1, 10**9)), max_size=300))
def test_the_memo_answers_as_a_dict(entries: list[tuple[int, int]]) -> None:
    memo = boxes.Memo()
    memo.PENDING = 7  # move entries to the sorted arrays often
    plain: dict[int, int] = {}
    for i in range(0, len(entries), 5):
        batch = {k: v for k, v in entries[i : i + 5] if k not in plain}  # the search puts unknown keys only
        memo.put(np.array(list(batch), dtype=np.int64), np.array(list(batch.values()), dtype=np.int64))
        plain.update(batch)
        probe = [k for k, _ in entries[: i + 10]] + [2**60 + i]
        got = memo.get(np.array(probe, dtype=np.int64)).tolist()
        assert got == [plain.get(k, -2) for k in probe]
    assert len(memo) == len(plain)
