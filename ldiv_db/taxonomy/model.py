"""The taxonomy model: a :class:`Hierarchy` is an immutable generalization tree (SPEC §0.4) whose nodes
are identified by their labels, built from ARX rows (one row per leaf, labels from the leaf up to the
root). Where ARX keeps a label unchanged for several levels (``a;a;*``) that label is one node, and the
row is kept so that :meth:`Hierarchy.level_label` still answers every level. Its preorder arrays are a
:class:`~ldiv_db.taxonomy.arrays.TaxonomyArrays` (:attr:`Hierarchy.arrays`).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from ..errors import HierarchyError
from ..util.lazy import library
from .arrays import TaxonomyArrays
from .rows import _fast_tree, _tree_from_rows

if TYPE_CHECKING:
    import numpy as np
else:
    np = library("numpy")

ROOT_LABEL = "*"
_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBERS = re.compile(rf"(?:{_NUM}\n)*{_NUM}")  # newline-joined leaf labels, all numeric

Number = int | float | Decimal
_Ranges = tuple[tuple[float, ...], tuple[float, ...]]


class Hierarchy:
    """An immutable generalization tree (SPEC §0.4); nodes are identified by their labels.

    Node ids are preorder indexes: root = 0, children left to right in order of first appearance in
    the source rows, so the subtree of a node is the id range :meth:`span`. Build one with
    :func:`parse_arx`, :func:`build_intervals`, or ``Hierarchy(rows)`` from ARX rows (leaf first).
    """

    __slots__ = (
        "_arrays",
        "_depth",
        "_hash",
        "_height",
        "_index",
        "_labels",
        "_last",
        "_levels",
        "_n_leaves",
        "_parent",
        "_ranges",
        "_short_rows",
    )

    def __init__(self, rows: Sequence[Sequence[str]]) -> None:
        """Validate ARX rows (leaf first, root last; errors per :func:`_tree_from_rows`), build the tree."""
        if not rows:
            raise HierarchyError("the hierarchy has no rows", "give one row per leaf: leaf;level1;...;root")
        width = len(rows[0])
        columns = list(zip(*rows, strict=True)) if set(map(len, rows)) == {width} else None
        self._build(lambda: rows, columns, width)

    @classmethod
    def _from_lines(cls, lines: list[str], sep: str) -> Hierarchy:
        """From the lines of an ARX file; splits all of them at once when every line has the same width."""
        if not lines:
            raise HierarchyError("the hierarchy has no rows", "give one row per leaf: leaf;level1;...;root")
        width = lines[0].count(sep) + 1
        columns = None
        if set(map(operator.methodcaller("count", sep), lines)) == {width - 1}:
            flat = sep.join(lines).split(sep)
            columns = [flat[j::width] for j in range(width)]
        self = cls.__new__(cls)
        self._build(lambda: [line.split(sep) for line in lines], columns, width)
        return self

    def _build(
        self,
        get_rows: Callable[[], Sequence[Sequence[str]]],
        columns: Sequence[Sequence[str]] | None,
        width: int,
    ) -> None:
        fast = _fast_tree(columns) if columns is not None else None
        if fast is not None:  # every leaf sits at the full depth: no short rows
            self._setup(*fast, width)
            return
        rows = get_rows()
        labels, parent = _tree_from_rows(rows)
        self._setup(labels, parent, width)
        # leaves that sit higher than the ARX height: a label repeats across levels in their rows
        high = np.flatnonzero(np.array(self._depth) < self._levels - 1).tolist()
        short = [i for i in high if self._is_leaf(i)]
        if short:
            by_leaf = {row[0]: row for row in rows}
            self._short_rows.update((labels[i], tuple(by_leaf[labels[i]])) for i in short)

    @classmethod
    def _from_arrays(
        cls, arrays: TaxonomyArrays, levels: int, short_rows: Mapping[str, Sequence[str]]
    ) -> Hierarchy:
        """Rebuild a stored tree from its preorder arrays without validating or deriving it again."""
        self = cls.__new__(cls)
        self._adopt(arrays, levels)
        self._short_rows.update((leaf, tuple(row)) for leaf, row in short_rows.items())
        return self

    def _setup(self, labels: list[str], parent_ids: list[int], levels: int) -> None:
        self._adopt(TaxonomyArrays.from_parent(labels, parent_ids), levels)

    def _adopt(self, arrays: TaxonomyArrays, levels: int) -> None:
        """Keep the arrays, and tuples of them for the label-level methods' scalar lookups."""
        labels = arrays.labels
        self._arrays = arrays
        self._labels = labels
        self._index = {label: i for i, label in enumerate(labels)}
        self._parent: tuple[int, ...] = tuple(arrays.parent.tolist())
        self._depth: tuple[int, ...] = tuple(arrays.depth.tolist())
        self._height: tuple[int, ...] = tuple(arrays.height.tolist())
        self._n_leaves: tuple[int, ...] = tuple(arrays.n_leaves.tolist())
        self._last: tuple[int, ...] = tuple(arrays.last.tolist())
        self._levels = levels
        self._short_rows: dict[str, tuple[str, ...]] = {}
        self._ranges: _Ranges | bool | None = False  # False = not computed yet
        self._hash: int | None = None

    def _is_leaf(self, i: int) -> bool:
        return self._last[i] == i

    def _child_ids(self, i: int) -> Iterator[int]:
        """Children of node ``i``, left to right: each starts right after its left sibling's subtree."""
        j, end = i + 1, self._last[i]
        while j <= end:
            yield j
            j = self._last[j] + 1

    # ------------------------------------------------------------------ whole tree
    @property
    def root(self) -> str:
        return self._labels[0]

    @property
    def arrays(self) -> TaxonomyArrays:
        """The preorder array view (what the algorithms build on)."""
        return self._arrays

    @property
    def labels(self) -> tuple[str, ...]:
        """All node labels in preorder (root first)."""
        return self._labels

    @property
    def parent_ids(self) -> tuple[int, ...]:
        """Parent id of every node, by node id (-1 for the root)."""
        return self._parent

    @property
    def levels(self) -> int:
        """ARX height: the number of columns of the ARX file, counting the leaf level."""
        return self._levels

    @property
    def domain_size(self) -> int:
        """Number of leaves (ARX convention: the domain may be larger than the values in the data)."""
        return self._n_leaves[0]

    @property
    def is_numeric(self) -> bool:
        """True when every leaf label reads as a number, so nodes have numeric ranges."""
        return self._numeric_ranges() is not None

    def rows(self) -> list[tuple[str, ...]]:
        """The ARX rows (leaf first, root last), leaves in preorder."""
        return [self._row(i) for i in range(len(self._labels)) if self._is_leaf(i)]

    def _row(self, i: int) -> tuple[str, ...]:
        short = self._short_rows.get(self._labels[i])
        return short if short is not None else self._path(i)

    def __len__(self) -> int:
        return len(self._labels)

    def __contains__(self, label: object) -> bool:
        return label in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._labels)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hierarchy):
            return NotImplemented
        return (
            self._labels == other._labels
            and self._parent == other._parent
            and self._levels == other._levels
            and self._short_rows == other._short_rows
        )

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._labels, self._parent, self._levels))
        return self._hash

    def __repr__(self) -> str:
        return (
            f"Hierarchy(root={self.root!r}, levels={self.levels}, "
            f"leaves={self.domain_size}, nodes={len(self)})"
        )

    # ------------------------------------------------------------------ nodes
    def node_id(self, v: str) -> int:
        """Preorder index of a node (root = 0)."""
        try:
            return self._index[v]
        except KeyError:
            raise KeyError(f"{v!r} is not a node of this hierarchy (root {self.root!r})") from None

    def label(self, node_id: int) -> str:
        return self._labels[node_id]

    def parent(self, v: str) -> str | None:
        p = self._parent[self.node_id(v)]
        return None if p < 0 else self._labels[p]

    def children(self, v: str) -> tuple[str, ...]:
        """Children left to right (order of first appearance in the source rows)."""
        return tuple(self._labels[c] for c in self._child_ids(self.node_id(v)))

    def ancestors(self, v: str) -> tuple[str, ...]:
        """The path from ``v`` (included) up to the root (included)."""
        return self._path(self.node_id(v))

    def _path(self, i: int) -> tuple[str, ...]:
        out = []
        while i >= 0:
            out.append(self._labels[i])
            i = self._parent[i]
        return tuple(out)

    def is_leaf(self, v: str) -> bool:
        return self._is_leaf(self.node_id(v))

    def depth(self, v: str) -> int:
        """Edges from the root (root = 0)."""
        return self._depth[self.node_id(v)]

    def height(self, v: str) -> int:
        """Longest path down to a leaf (leaves = 0)."""
        return self._height[self.node_id(v)]

    def n_leaves(self, v: str) -> int:
        return self._n_leaves[self.node_id(v)]

    def span(self, v: str) -> tuple[int, int]:
        """Preorder ids of ``v`` and of the last node of its subtree (the subtree is this id range)."""
        i = self.node_id(v)
        return i, self._last[i]

    def leaves(self, v: str | None = None) -> tuple[str, ...]:
        """The leaves under ``v`` (default: the root), left to right."""
        first, last = self.span(v if v is not None else self.root)
        return tuple(self._labels[i] for i in range(first, last + 1) if self._last[i] == i)

    def range(self, v: str) -> tuple[float, float] | None:
        """(lo, hi) = min/max numeric leaf under ``v``; None when the leaves are not all numeric."""
        i = self.node_id(v)
        ranges = self._numeric_ranges()
        return None if ranges is None else (ranges[0][i], ranges[1][i])

    def _numeric_ranges(self) -> _Ranges | None:
        if self._ranges is False:
            self._ranges = None
            leaf_ids = [i for i in range(len(self._labels)) if self._last[i] == i]
            leaf_labels = [self._labels[i] for i in leaf_ids]
            if _NUMBERS.fullmatch("\n".join(leaf_labels)):
                n = len(self._labels)
                lo = np.full(n, np.inf)
                hi = np.full(n, -np.inf)
                lo[leaf_ids] = hi[leaf_ids] = np.array(leaf_labels, dtype=object).astype(np.float64)
                parent = np.array(self._parent, dtype=np.int64)
                depth = np.array(self._depth, dtype=np.int64)
                for d in range(int(depth.max()), 0, -1):
                    ids = np.flatnonzero(depth == d)
                    np.minimum.at(lo, parent[ids], lo[ids])
                    np.maximum.at(hi, parent[ids], hi[ids])
                self._ranges = (tuple(lo.tolist()), tuple(hi.tolist()))
        return self._ranges if isinstance(self._ranges, tuple) else None

    def lca(self, a: str, b: str) -> str:
        """Lowest common ancestor (SPEC §0.5 LCA generalization)."""
        return self._labels[self._lca_ids(self.node_id(a), self.node_id(b))]

    def lca_many(self, values: Iterable[str]) -> str:
        """LCA of a non-empty set of nodes: the LCA of its smallest and largest preorder ids."""
        ids = [self.node_id(v) for v in values]
        if not ids:
            raise ValueError("lca_many needs at least one node")
        return self._labels[self._lca_ids(min(ids), max(ids))]

    def _lca_ids(self, a: int, b: int) -> int:
        lo, hi = min(a, b), max(a, b)
        while hi > self._last[lo]:
            lo = self._parent[lo]
        return lo

    def level_label(self, leaf: str, level: int) -> str:
        """ARX generalization of a leaf: level 0 = the leaf, ``levels - 1`` = the root."""
        i = self._index.get(leaf, -1)
        if i < 0 or not self._is_leaf(i):
            raise KeyError(f"{leaf!r} is not a leaf of this hierarchy (root {self.root!r})")
        if not 0 <= level < self._levels:
            raise ValueError(f"level {level} is out of range: the hierarchy has levels 0..{self._levels - 1}")
        short = self._short_rows.get(leaf)
        if short is not None:
            return short[level]
        for _ in range(level):
            i = self._parent[i]
        return self._labels[i]

    def n_cuts(self, v: str | None = None) -> int:
        """Number of full-subtree cuts under ``v`` (default: the root), SPEC §5.2: 1 for a leaf, else
        1 + the product of the children's counts."""
        first, last = self.span(v if v is not None else self.root)
        cuts = [1] * (last - first + 1)
        for i in range(last, first - 1, -1):
            if not self._is_leaf(i):
                prod = 1
                for c in self._child_ids(i):
                    prod *= cuts[c - first]
                cuts[i - first] = 1 + prod
        return cuts[0]
