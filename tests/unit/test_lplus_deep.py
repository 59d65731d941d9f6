"""l+-Optimize on deep and wide taxonomies: the search's recursion (a frame per node specialized along a
path) runs past the recursion limit (Python's default 1,000 on a hierarchy of more inner nodes; here a
lower one), and the climb makes only the cuts it keeps (each costs the cut's size: made for every move
priced, a quadratic pass over a wide cut's moves)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest

from ldiv_db.algorithms.lplus import climb
from ldiv_db.algorithms.lplus.problem import Problem, Taxonomy
from ldiv_db.algorithms.lplus.search import Search
from tests.reference.lplus_oracle import Tax
from tests.unit.lplus_fixtures import to_problem


def _caterpillar(inner: int) -> Problem:
    """A chain of ``inner`` nodes n_i = 2i, each with a leaf 2i + 1 before the next (the last, n_inner,
    a leaf), in preorder; a row per leaf, the SA values alternating."""
    parent = [-1]
    for i in range(inner):
        parent += [2 * i, 2 * i]  # the leaf of n_i, then n_{i+1}
    leaves = [v for v in range(len(parent)) if v not in set(parent)]
    return Problem(
        taxonomies=[Taxonomy.of(parent)],
        leaf=np.array([leaves], dtype=np.int64),
        sa=np.arange(len(leaves), dtype=np.int64) % 2,
        count=np.ones(len(leaves), dtype=np.int64),
        theta=[(1, 2), (1, 2)],
        metric="lm",
        scheme="nosupp",
    )


@pytest.fixture
def low_limit() -> Iterator[int]:
    """A recursion limit of 400 for the test (the chain then needs a few hundred nodes, not 1,100)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(400)
    try:
        yield 400
    finally:
        sys.setrecursionlimit(before)


def test_a_hierarchy_deeper_than_the_recursion_limit_is_searched(low_limit: int) -> None:
    inner = low_limit + 101  # an even number of leaves: the root holds θ = 1/2
    s = Search(_caterpillar(inner), enumerate_all=True)
    result = s.run()
    assert result.cost is not None and result.optimal
    assert result.visited == inner + 1  # every cut of the chain: the root, or n_0 .. n_i specialized
    assert sys.getrecursionlimit() == low_limit  # restored


def _groups(n: int) -> tuple[Search, tuple[tuple[int, ...], ...]]:
    """Root → ``n`` groups → 4 leaves each, a row per leaf, SA a b a b in each group; the group cut is a
    local minimum (a leaf alone breaks θ = 1/2, the root costs more)."""
    kids = {"root": [f"g{i}" for i in range(n)]} | {
        f"g{i}": [f"g{i}.{j}" for j in range(4)] for i in range(n)
    }
    rows = [((f"g{i}.{j}",), "ab"[j % 2], None) for i in range(n) for j in range(4)]
    problem, names = to_problem([Tax("root", kids)], rows, {"a": F(1, 2), "b": F(1, 2)}, "lm", "nosupp")
    cut = (tuple(sorted(names[0].index(f"g{i}") for i in range(n))),)
    return Search(problem), cut


@pytest.mark.parametrize("pairs", [False, True])
def test_the_climb_makes_only_the_cuts_it_keeps(monkeypatch: pytest.MonkeyPatch, pairs: bool) -> None:
    s, cut = _groups(60)
    made: list[Any] = []
    real = climb._with
    monkeypatch.setattr(climb, "_with", lambda *a: made.append(a) or real(*a))
    assert climb.climb(s, cut, climb.cut_cost(s, cut), pairs=pairs) is None  # a local minimum
    # single moves: none kept; pairs: the one first move of a finite cost, the root (before: 61 or 62)
    assert len(made) == (1 if pairs else 0)


def test_searches_in_two_threads_share_the_recursion_room() -> None:
    """The limit is the process's: one search ending must not lower it under another still running, and
    the last one restores what was there before the first."""
    from types import SimpleNamespace

    from ldiv_db.algorithms.lplus.index import recursion_room

    def tree(inner: int) -> Any:
        return SimpleNamespace(n=2 * inner + 1, is_leaf=np.array([False] * inner + [True] * (inner + 1)))

    before = sys.getrecursionlimit()
    first, second = recursion_room([tree(3000)]), recursion_room([tree(100)])
    first.__enter__()
    assert sys.getrecursionlimit() >= before + 6000
    second.__enter__()
    first.__exit__(None, None, None)  # the deep one ends first: the other still runs under its room
    assert sys.getrecursionlimit() >= before + 200
    second.__exit__(None, None, None)
    assert sys.getrecursionlimit() == before
