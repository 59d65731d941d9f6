"""The one array view of a taxonomy: preorder arrays, produced by the taxonomy model and the store,
read by every algorithm (BSGI, Mondrian and l+-Optimize derive their own index structures from it).

Node ids are preorder indexes 0..N-1: root = 0, children left to right, so the subtree of node ``i`` is
the id range ``i..last[i]`` and ``i`` is a leaf exactly when ``last[i] == i`` (SPEC §0.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from ..util.lazy import library

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
else:
    np = library("numpy")

# a string, so that naming the type loads no numpy (annotations are never evaluated here)
IntArray: TypeAlias = "npt.NDArray[np.int64]"


@dataclass(frozen=True, eq=False)
class TaxonomyArrays:
    """One taxonomy as read-only preorder arrays (one entry per node id)."""

    labels: tuple[str, ...]
    parent: IntArray  # -1 for the root
    depth: IntArray  # edges from the root
    height: IntArray  # longest path down to a leaf (leaves: 0)
    n_leaves: IntArray  # leaves in the subtree
    last: IntArray  # the last node id of the subtree

    def __post_init__(self) -> None:
        n = len(self.labels)
        for name in ("parent", "depth", "height", "n_leaves", "last"):
            a = np.asarray(getattr(self, name), dtype=np.int64)
            if a.shape != (n,):
                raise ValueError(f"taxonomy arrays: {name} has shape {a.shape}, expected ({n},)")
            a.setflags(write=False)
            object.__setattr__(self, name, a)

    @property
    def size(self) -> int:
        return len(self.labels)

    @property
    def domain(self) -> int:
        """|A|: the number of leaves."""
        return int(self.n_leaves[0])

    @property
    def is_leaf(self) -> npt.NDArray[np.bool_]:
        return np.asarray(self.last == np.arange(self.size, dtype=np.int64))

    @classmethod
    def from_parent(cls, labels: Sequence[str], parent_ids: Sequence[int]) -> TaxonomyArrays:
        """The arrays of a preorder tree given by its parent ids (``-1`` for the root), vectorized one
        depth at a time (a 100,000-leaf tree takes milliseconds)."""
        n = len(labels)
        parent = np.array(parent_ids, dtype=np.int64).reshape(n)
        depth = np.zeros(n, dtype=np.int64)
        up = parent.copy()
        alive = np.flatnonzero(up >= 0)
        while alive.size:
            depth[alive] += 1
            up[alive] = parent[up[alive]]
            alive = alive[up[alive] >= 0]
        leaf = np.ones(n, dtype=bool)
        leaf[parent[1:]] = False
        n_leaves = leaf.astype(np.int64)
        height = np.zeros(n, dtype=np.int64)
        last = np.arange(n, dtype=np.int64)
        order = np.argsort(-depth, kind="stable")
        bounds = np.flatnonzero(np.diff(depth[order])) + 1
        for ids in np.split(order, bounds):
            if not ids.size or depth[ids[0]] == 0:
                break
            par = parent[ids]
            np.add.at(n_leaves, par, n_leaves[ids])
            np.maximum.at(height, par, height[ids] + 1)
            np.maximum.at(last, par, last[ids])
        return cls(tuple(labels), parent, depth, height, n_leaves, last)
