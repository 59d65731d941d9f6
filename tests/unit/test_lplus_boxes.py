"""The boxes' bound of l+-Optimize (ldiv_db/algorithms/lplus/boxes.py) run in every rotation of the open
attributes' order, the largest value kept, against the independent brute force of
tests/reference/lplus_oracle.py: at the root (one partition, every attribute open, every cut below it)
the bound never passes the optimum and the rotations raise it above the single order on random tables;
at every node and locking stage of random searches it never passes the least cost of the cuts it covers;
and that check catches a recursion that never splits."""

from __future__ import annotations

import random
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from ldiv_db.algorithms.lplus import boxes
from ldiv_db.algorithms.lplus.search import Search
from tests.reference.lplus_oracle import Row, Tax, brute_force, optimum
from tests.unit.lplus_fixtures import COUNTRY, EDU, FIG1, to_problem
from tests.unit.test_lplus_random import EXAMPLES, problems
from tests.unit.test_lplus_spec import _lb_sound

Case = tuple[list[Tax], list[Row], dict[str, F]]
COMBOS = [("lm", "viorec"), ("lm", "viosa"), ("lm", "allrec"), ("dm", "viorec"), ("dm", "allrec")]


def _root_bound(problem: object, orders: int, monkeypatch: pytest.MonkeyPatch) -> F:
    """The search's lower bound of its root (every cut), with the recursion run in ``orders`` orders."""
    monkeypatch.setattr(boxes, "ORDERS", orders)
    s = Search(problem)  # type: ignore[arg-type]
    _, _, lb, _ = s._eval(s.all_cells)
    return F(lb, s.unit)


A = Tax("a*", {"a*": ["A0", "A1"], "A0": ["a0", "a1"], "A1": ["a2", "a3", "a4"]})
B = Tax("b*", {"b*": ["B0", "B1"], "B0": ["b0", "b1"], "B1": ["b2", "b3"]})
C = Tax("c*", {"c*": ["c0", "c1", "c2"]})


def _table(seed: int) -> Case:
    """Two attributes (odd seeds: three), 6–40 rows over 2–4 SA values, θ = 1/2."""
    rng = random.Random(seed)
    taxes = [A, B, C] if seed % 2 else [A, B]
    values = [f"s{i}" for i in range(rng.randint(2, 4))]
    rows: list[Row] = [
        (tuple(rng.choice(t.leaves(t.root)) for t in taxes), rng.choice(values), None)
        for _ in range(rng.randint(6, 40))
    ]
    return taxes, rows, {v: F(1, 2) for v in values}


def test_rotations_raise_the_root_bound_and_never_pass_the_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    raised = checked = 0
    orders = boxes.ORDERS  # every rotation (the default)
    for seed in range(30):
        taxes, rows, theta = _table(seed)
        for metric, scheme in COMBOS:
            best = optimum(brute_force(taxes, rows, theta, metric, scheme))
            assert best is not None  # suppression schemes: every cut is feasible
            problem, _ = to_problem(taxes, rows, theta, metric, scheme)
            one, every = _root_bound(problem, 1, monkeypatch), _root_bound(problem, orders, monkeypatch)
            assert one <= every <= best, (seed, metric, scheme, one, every, best)
            raised += every > one
            checked += 1
    print(f"root bound raised by the rotations in {raised} of {checked} tables")
    assert raised > 0


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_rotated_bounds_are_sound_at_every_node_and_stage(case: Case) -> None:
    taxes, rows, theta = case
    for metric, scheme in COMBOS:
        problem, _ = to_problem(taxes, rows, theta, metric, scheme)
        _lb_sound(problem, "occurrences")


def test_the_soundness_check_catches_a_recursion_that_never_splits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without its steps the recursion returns each partition's cost at the current cut, which its finer
    cuts can beat: not a lower bound, and the node-by-node check says so."""
    problem, _ = to_problem(
        [EDU, COUNTRY], FIG1, {v: F(1, 2) for v in ("Cancer", "Flu", "Asthma")}, "lm", "viorec"
    )
    assert _lb_sound(problem) > 0
    monkeypatch.setattr(boxes, "_links", lambda box, G: [[] for _ in range(box.ndim - 1)])
    with pytest.raises(AssertionError):
        _lb_sound(problem)


def test_memo_keys_decode_every_node_vector_and_its_open_bits() -> None:
    """``memo_keys`` takes the partition key's mixed-radix digits (the node per attribute, the largest
    node ids included) and each node's open bit, as the key ``pkey · 2^d + open bits``."""
    taxes, rows, theta = _table(1)
    problem, _ = to_problem(taxes, rows, theta, "lm", "viorec")
    s = Search(problem)
    rng = random.Random(7)
    for a, t in enumerate(s.trees):
        s.open_node[a][:] = [rng.random() < 0.5 for _ in range(t.n)]
    vectors = [[rng.randrange(t.n) for t in s.trees] for _ in range(200)]
    vectors += [[t.n - 1 for t in s.trees], [0] * s.d]
    pkey = np.array([sum(x * int(st) for x, st in zip(v, s.stride, strict=True)) for v in vectors])
    X, mbits, keys = boxes.memo_keys(s, pkey)
    assert X.T.tolist() == vectors
    bits = [sum(int(s.open_node[a][x]) << a for a, x in enumerate(v)) for v in vectors]
    assert mbits.tolist() == bits
    assert keys.tolist() == [int(k) * (1 << s.d) + b for k, b in zip(pkey, bits, strict=True)]
