"""The one preorder array view of a taxonomy (:class:`ldiv_db.taxonomy.TaxonomyArrays`): its arrays
against a plain recursive walk of the parent ids, read-only sharing, and the algorithms' views built on it
(BSGI/Mondrian's Tree, l+-Optimize's Taxonomy)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ldiv_db.algorithms.lplus.index import TreeIndex
from ldiv_db.algorithms.lplus.problem import Taxonomy
from ldiv_db.algorithms.shared.trees import Tree
from ldiv_db.taxonomy import Hierarchy, TaxonomyArrays, parse_arx

EDUCATION = "Jr;Sec;AnyEdu\nSr;Sec;AnyEdu\nBa;Uni;AnyEdu\nGrad;Uni;AnyEdu\n"


def _walk(parent: list[int]) -> dict[str, list[int]]:
    """depth, height, n_leaves and last of every node, by recursion over the children lists."""
    n = len(parent)
    children: list[list[int]] = [[] for _ in range(n)]
    for i, p in enumerate(parent):
        if p >= 0:
            children[p].append(i)
    out = {k: [0] * n for k in ("depth", "height", "n_leaves", "last")}

    def visit(v: int, depth: int) -> None:
        out["depth"][v] = depth
        for c in children[v]:
            visit(c, depth + 1)
        out["height"][v] = 1 + max((out["height"][c] for c in children[v]), default=-1)
        out["n_leaves"][v] = sum(out["n_leaves"][c] for c in children[v]) if children[v] else 1
        out["last"][v] = max([v] + [out["last"][c] for c in children[v]])

    visit(0, 0)
    return out


def _random_tree(rng: random.Random, n: int) -> list[int]:
    """Parent ids of a random tree of n nodes in preorder (built depth first)."""
    parent = [-1]
    stack = [0]
    while len(parent) < n:
        while len(stack) > 1 and rng.random() < 0.4:
            stack.pop()
        parent.append(stack[-1])
        stack.append(len(parent) - 1)
    return parent


@pytest.mark.parametrize("seed", range(20))
def test_arrays_match_a_recursive_walk(seed: int) -> None:
    rng = random.Random(seed)
    parent = _random_tree(rng, rng.randint(1, 60))
    t = TaxonomyArrays.from_parent([f"n{i}" for i in range(len(parent))], parent)
    want = _walk(parent)
    assert t.parent.tolist() == parent
    for name, values in want.items():
        assert getattr(t, name).tolist() == values, name
    assert t.domain == sum(1 for i in range(len(parent)) if i not in parent)
    assert t.is_leaf.tolist() == [i not in parent for i in range(len(parent))]


def test_hierarchy_exposes_its_arrays() -> None:
    h = parse_arx(EDUCATION)
    t = h.arrays
    assert t.labels == h.labels and t.parent.tolist() == list(h.parent_ids)
    assert t.depth.tolist() == [h.depth(v) for v in h.labels]
    assert t.n_leaves.tolist() == [h.n_leaves(v) for v in h.labels]
    assert t.last.tolist() == [h.span(v)[1] for v in h.labels]
    assert Hierarchy._from_arrays(t, h.levels, {}) == h


def test_arrays_are_read_only_and_checked() -> None:
    t = parse_arx(EDUCATION).arrays
    with pytest.raises(ValueError):
        t.parent[1] = 5
    with pytest.raises(ValueError, match="n_leaves has shape"):
        TaxonomyArrays(("a", "b"), np.array([-1, 0]), np.zeros(2), np.zeros(2), np.zeros(3), np.zeros(2))


def test_algorithm_views_share_the_arrays() -> None:
    h = parse_arx(EDUCATION)
    tree = Tree(h.arrays)
    assert tree.parent is h.arrays.parent and tree.domain == 4
    assert tree.lca_row(h.node_id("Jr"))[h.node_id("Sr")] == h.node_id("Sec")
    tax = Taxonomy(h.arrays)
    index = TreeIndex(tax)
    assert index.n_cuts[0] == h.n_cuts() and index.last is h.arrays.last
    made = Taxonomy.of(h.parent_ids)
    assert made.labels == tuple(str(i) for i in range(len(h))) and made.parent.tolist() == list(h.parent_ids)
