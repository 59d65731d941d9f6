"""The joint cuts' bound of l+-Optimize (ldiv_db/algorithms/lplus/joint.py): partitions that share an open
node of one attribute are priced with one cut below it. Against the independent brute force of
tests/reference/lplus_oracle.py: a hand-made case where the per-partition bounds fall short and the joint
one reaches the subtree's optimum; at every node and locking stage of searches on random tables the
bound (the search's running total plus the gain) never passes the least cost of the cuts it covers,
while the gain is positive on some of them; and that check catches a recursion that always splits."""

from __future__ import annotations

import random
from fractions import Fraction as F

import numpy as np
import pytest

from ldiv_db.algorithms.lplus import boxes, joint
from ldiv_db.algorithms.lplus.search import Search
from tests.reference.lplus_oracle import Row, Tax, brute_force
from tests.unit.lplus_fixtures import to_problem
from tests.unit.test_lplus_spec import _lb_sound

COMBOS = [("lm", "viorec"), ("lm", "viosa"), ("lm", "allrec"), ("dm", "viorec"), ("dm", "allrec")]
# B first (attribute 0), so that B* is specialized while A* stays open
B = Tax("B*", {"B*": ["b0", "b1"]})
A = Tax("A*", {"A*": ["a0", "a1"]})
# (b0, A*): both SA values under a0 and under a1, so splitting A costs it nothing and keeping A* costs
# 4 rows × LM 1 = 4; (b1, A*): one row under each of a0, a1, so splitting deletes both (2 × 4) and
# keeping A* costs 2. On its own each picks its best (0 + 2); one cut for both: min(4 + 2, 0 + 8) = 6.
ROWS: list[Row] = [
    (("b0", "a0"), "s1", None),
    (("b0", "a0"), "s2", None),
    (("b0", "a1"), "s1", None),
    (("b0", "a1"), "s2", None),
    (("b1", "a0"), "s1", None),
    (("b1", "a1"), "s2", None),
]
HALF = {"s1": F(1, 2), "s2": F(1, 2)}


def _visits(problem: object) -> list[tuple[tuple[tuple[int, ...], ...], F, F]]:
    """Every visited cut of an exhaustive search with its cost and its checked lower bound."""
    out = []
    s = Search(problem, value_order="occurrences", enumerate_all=True)  # type: ignore[arg-type]
    s.trace = lambda kind, depth, cost, lb: (
        out.append((s._snapshot(), F(cost, s.unit), F(lb, s.unit))) if kind == "visit" else None
    )
    s.run()
    return out


def test_two_partitions_sharing_an_open_node_get_their_joint_optimum() -> None:
    problem, names = to_problem([B, A], ROWS, HALF, "lm", "viorec")
    costs = brute_force([B, A], ROWS, HALF, "lm", "viorec")
    # the subtree where B is split into its leaves and A* is open: A* kept, or split
    below = [c for cut, c in costs.items() if cut[0] == frozenset({"b0", "b1"}) and c is not None]
    assert sorted(below) == [F(6), F(8)]  # A* kept: 4 + 2; split: 0 + 8
    visit = next(v for v in _visits(problem) if [names[0][i] for i in v[0][0]] == ["b0", "b1"])
    cut, cost, lb = visit
    assert [names[1][i] for i in cut[1]] == ["A*"] and cost == 6
    assert lb == 6  # the per-partition bounds alone: 0 + 2


def test_without_the_joint_cuts_that_bound_is_the_per_partition_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(boxes.BoxBound, "gain", lambda self, s, need: 0)
    monkeypatch.setattr(boxes.BoxBound, "whole", lambda self, s, need, known=None: 0)
    problem, names = to_problem([B, A], ROWS, HALF, "lm", "viorec")
    visit = next(v for v in _visits(problem) if [names[0][i] for i in v[0][0]] == ["b0", "b1"])
    assert visit[2] == 2


def test_the_groups_of_the_whole_cut_reach_the_joint_optimum_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the touched partitions' groups, the groups over every partition of the cut give 6 too."""
    monkeypatch.setattr(boxes.BoxBound, "gain", lambda self, s, need: 0)
    problem, names = to_problem([B, A], ROWS, HALF, "lm", "viorec")
    visit = next(v for v in _visits(problem) if [names[0][i] for i in v[0][0]] == ["b0", "b1"])
    assert visit[2] == 6


A3 = Tax("a*", {"a*": ["A0", "A1"], "A0": ["a0", "a1"], "A1": ["a2", "a3", "a4"]})
B3 = Tax("b*", {"b*": ["b0", "b1", "b2"]})
C3 = Tax("c*", {"c*": ["C0", "C1"], "C0": ["c0", "c1"], "C1": ["c2", "c3"]})


def _table(seed: int) -> tuple[list[Tax], list[Row], dict[str, F]]:
    """Two attributes (odd seeds: three), 8–40 rows over 2–4 SA values, θ = 1/2 (seeds ≡ 2 mod 3: 1/3)."""
    rng = random.Random(seed)
    taxes = [B3, A3, C3] if seed % 2 else [B3, A3]
    values = [f"s{i}" for i in range(rng.randint(2, 4))]
    rows: list[Row] = [
        (tuple(rng.choice(t.leaves(t.root)) for t in taxes), rng.choice(values), None)
        for _ in range(rng.randint(8, 40))
    ]
    th = F(1, 3) if seed % 3 == 2 else F(1, 2)
    return taxes, rows, {v: th for v in values}


def _gains(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    seen: list[int] = []
    real = boxes.BoxBound.gain

    def spy(self: boxes.BoxBound, s: object, need: int) -> int:
        g = real(self, s, need)  # type: ignore[arg-type]
        seen.append(g)
        return g

    monkeypatch.setattr(boxes.BoxBound, "gain", spy)
    return seen


@pytest.mark.parametrize("seeds", [range(0, 12), range(12, 24)])
def test_joint_bound_is_sound_at_every_node(seeds: range, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _gains(monkeypatch)
    checks = 0
    for seed in seeds:
        taxes, rows, theta = _table(seed)
        for metric, scheme in COMBOS:
            problem, _ = to_problem(taxes, rows, theta, metric, scheme)
            checks += _lb_sound(problem, "occurrences")
    raised = sum(g > 0 for g in seen)
    print(f"{checks} checks; the joint cuts raised {raised} of {len(seen)} bounds")
    assert raised > 0


def test_the_soundness_check_catches_a_recursion_that_always_splits(monkeypatch: pytest.MonkeyPatch) -> None:
    """With J(w) = Σ J(children) wherever w has children (a cut that keeps w never counted), the gain
    prices only the finest cut below each group's node, which coarser cuts beat."""

    def split_always(forest, nodes, S, is_root):  # type: ignore[no-untyped-def]
        J = S.copy()
        depth = forest.depth[nodes]
        for dd in range(int(depth.max()), int(depth.min()), -1):
            sums: dict[int, int] = {}
            for w in nodes[depth == dd].tolist():
                if not is_root[w]:
                    parent = int(forest.parent[w])
                    sums[parent] = sums.get(parent, 0) + int(J[w])
            for parent, total in sums.items():
                J[parent] = total
        return J

    taxes, rows, theta = _table(1)
    problem, _ = to_problem(taxes, rows, theta, "lm", "viorec")
    assert _lb_sound(problem, "occurrences") > 0
    monkeypatch.setattr(joint, "tree_min", split_always)
    with pytest.raises(AssertionError):
        for seed in range(24):
            taxes, rows, theta = _table(seed)
            problem, _ = to_problem(taxes, rows, theta, "lm", "viorec")
            _lb_sound(problem, "occurrences")


def _wholes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    seen: list[int] = []
    real = boxes.BoxBound.whole

    def spy(self: boxes.BoxBound, s: object, need: int, known: int | None = None) -> int:
        g = real(self, s, need, known)  # type: ignore[arg-type]
        seen.append(g)
        return g

    monkeypatch.setattr(boxes.BoxBound, "whole", spy)
    return seen


@pytest.mark.parametrize("seeds", [range(24, 36), range(36, 48)])
def test_the_whole_cuts_groups_are_sound_at_every_node_and_stage(
    seeds: range, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The groups over every partition of the cut, checked alone (the touched groups off) at every visit
    and every locking stage of exhaustive searches: never above the least cost of the cuts covered."""
    monkeypatch.setattr(boxes.BoxBound, "gain", lambda self, s, need: 0)
    seen = _wholes(monkeypatch)
    for seed in seeds:
        taxes, rows, theta = _table(seed)
        for metric, scheme in COMBOS:
            problem, _ = to_problem(taxes, rows, theta, metric, scheme)
            _lb_sound(problem, "occurrences")
    assert sum(g > 0 for g in seen) > 0


def test_the_whole_cuts_groups_prune_and_find_the_same_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pruned searches with and without the groups over every partition: the same cost, cut and ties
    (the brute-force optimum), and fewer visits on some tables."""
    fewer = 0
    for seed in range(24):
        taxes, rows, theta = _table(seed)
        for metric, scheme in COMBOS:
            problem, _ = to_problem(taxes, rows, theta, metric, scheme)
            costs = brute_force(taxes, rows, theta, metric, scheme)
            best = min(c for c in costs.values() if c is not None)
            with_it = Search(problem, value_order="occurrences").run()
            with monkeypatch.context() as m:
                m.setattr(boxes.BoxBound, "whole", lambda self, s, need, known=None: 0)
                without = Search(problem, value_order="occurrences").run()
            assert with_it.cut == without.cut and with_it.cost == without.cost
            assert F(with_it.cost, with_it.unit) == best
            assert with_it.visited <= without.visited
            fewer += with_it.visited < without.visited
    assert fewer > 0


def _trace(problem: object, exhaustive: bool) -> tuple[list[tuple[str, int, int, int]], object]:
    """Every visit's and stage's (kind, depth, cost, bound) of a search, and its result."""
    out: list[tuple[str, int, int, int]] = []
    s = Search(problem, value_order="occurrences", enumerate_all=exhaustive)  # type: ignore[arg-type]
    s.trace = lambda kind, depth, cost, lb: out.append((kind, depth, cost, lb))
    res = s.run()
    return out, (res.cut, res.cost, res.visited, res.pruned)


def test_a_visited_childs_first_stage_reuses_its_checks_whole_cut_gain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole cut's gain computed at a visited child's check stands for its first stage's (the same
    cut): every visit's and stage's bound, the visits and the cut are those of searches that compute it
    again, on random tables × metric/scheme pairs, pruned and exhaustive; and it is computed less often."""
    computed: list[int] = []
    real = boxes.BoxBound._whole

    def count(self: boxes.BoxBound, s: object) -> int:
        computed.append(1)
        return real(self, s)  # type: ignore[arg-type]

    monkeypatch.setattr(boxes.BoxBound, "_whole", count)
    whole = boxes.BoxBound.whole
    again = 0
    for seed in range(12):
        taxes, rows, theta = _table(seed)
        for metric, scheme in COMBOS:
            problem, _ = to_problem(taxes, rows, theta, metric, scheme)
            for exhaustive in (False, True):
                before = len(computed)
                reused = _trace(problem, exhaustive)
                n_reused = len(computed) - before
                with monkeypatch.context() as m:
                    m.setattr(boxes.BoxBound, "whole", lambda self, s, need, known=None: whole(self, s, need))
                    assert _trace(problem, exhaustive) == reused
                again += len(computed) - before - 2 * n_reused
    assert again > 0  # the reuse saved computations


@pytest.mark.parametrize("scale", [1, 2**50])
def test_sum_at_equals_add_at(scale: int) -> None:
    """The sums per number: by bincount below 2^52, by ``np.add.at`` above (2,000 values near 2^51:
    a float64 would round their sums); both exact."""
    rng = np.random.default_rng(scale)
    at = rng.integers(0, 50, size=2_000)
    value = rng.integers(1, 4, size=2_000) * scale + rng.integers(0, 7, size=2_000)
    want = np.zeros(60, dtype=np.int64)
    np.add.at(want, at, value)
    got = joint.sum_at(60, at, value)
    assert got.dtype == np.int64 and (got == want).all()
