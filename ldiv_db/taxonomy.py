"""Generalization hierarchies (taxonomies): the tree model, ARX-CSV import, the interval builder, and
their storage in ``ldiv.hierarchy`` / ``ldiv.hierarchy_node`` / ``ldiv.hierarchy_level`` (SPEC §0.4).

A :class:`Hierarchy` is an immutable tree whose nodes are identified by their labels, built from ARX
rows (one row per leaf, labels from the leaf up to the root). Where ARX keeps a label unchanged for
several levels (``a;a;*``) that label is one node, and the row is kept so that
:meth:`Hierarchy.level_label` still answers every level.
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .catalog import Column, Table, resolve_table
from .db import Database
from .errors import HierarchyError
from .files import read_text
from .ownership import refuse_ldiv_table
from .render import TableRef, render

__all__ = [
    "KINDS",
    "CategoriesInfo",
    "Hierarchy",
    "HierarchyInfo",
    "build_hierarchy",
    "build_intervals",
    "import_categories",
    "import_hierarchy",
    "list_hierarchies",
    "load",
    "missing_values",
    "parse_arx",
    "show_hierarchy",
    "store",
    "stored_categories",
]

KINDS = ("imported", "intervals", "flat")
ROOT_LABEL = "*"
SHOW_LINES = 40  # tree lines per hierarchy in show_hierarchy (the summary line comes on top)

_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBERS = re.compile(rf"(?:{_NUM}\n)*{_NUM}")  # newline-joined leaf labels, all numeric
_NODE_TABLE = TableRef("hierarchy_node", "ldiv")
_LEVEL_TABLE = TableRef("hierarchy_level", "ldiv")

Number = int | float | Decimal
_Ranges = tuple[tuple[float, ...], tuple[float, ...]]


def _lines(numbers: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:10])
    more = f" and {len(numbers) - 10} more" if len(numbers) > 10 else ""
    return f"line{'s' if len(numbers) > 1 else ''} {shown}{more}"


class Hierarchy:
    """An immutable generalization tree (SPEC §0.4); nodes are identified by their labels.

    Node ids are preorder indexes: root = 0, children left to right in order of first appearance in
    the source rows, so the subtree of a node is the id range :meth:`span`. Build one with
    :func:`parse_arx`, :func:`build_intervals`, or ``Hierarchy(rows)`` from ARX rows (leaf first).
    """

    __slots__ = (
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
    def _from_nodes(
        cls, labels: list[str], parent: list[int], levels: int, short_rows: Mapping[str, Sequence[str]]
    ) -> Hierarchy:
        """Rebuild a stored tree (labels and parent ids in preorder) without validating it again."""
        self = cls.__new__(cls)
        self._setup(labels, parent, levels)
        self._short_rows.update((leaf, tuple(row)) for leaf, row in short_rows.items())
        return self

    def _setup(self, labels: list[str], parent_ids: list[int], levels: int) -> None:
        """Derived arrays, vectorized one depth at a time (a 100,000-leaf tree takes milliseconds)."""
        n = len(labels)
        parent = np.array(parent_ids, dtype=np.int64)
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
            if depth[ids[0]] == 0:
                break
            par = parent[ids]
            np.add.at(n_leaves, par, n_leaves[ids])
            np.maximum.at(height, par, height[ids] + 1)
            np.maximum.at(last, par, last[ids])
        self._labels = tuple(labels)
        self._index = {label: i for i, label in enumerate(labels)}
        self._parent = tuple(parent_ids)
        self._depth = tuple(depth.tolist())
        self._height = tuple(height.tolist())
        self._n_leaves = tuple(n_leaves.tolist())
        self._last = tuple(last.tolist())
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


def _tree_from_rows(rows: Sequence[Sequence[str]]) -> tuple[list[str], list[int]]:
    """Check ARX rows; return the node labels in preorder and each node's parent id (-1 for the root).

    Raises :class:`HierarchyError` naming the lines: ragged rows, empty labels, a leaf listed twice, a
    node with two parents, several roots, a label that recurs non-adjacently in a row (it would be its
    own ancestor), a leaf label that is also an inner node. Adjacent repeats (``a;a;*``) are one node.
    (The common case, every level with its own labels and no errors, is first tried by
    :func:`_fast_tree`; this row-by-row pass finds the first problem and names it.)
    """
    children_of, root = _row_by_row_tree(rows)
    labels: list[str] = []
    parent: list[int] = []
    stack = [(root, -1)]
    while stack:  # preorder, iteratively: deep trees must not hit the recursion limit
        node, par = stack.pop()
        me = len(labels)
        labels.append(node)
        parent.append(par)
        kids = children_of.get(node)
        if kids:
            stack.extend((kid, me) for kid in reversed(kids))
    return labels, parent


def _fast_tree(columns: Sequence[Sequence[str]]) -> tuple[list[str], list[int]] | None:
    """Preorder labels and parent ids with numpy when the rows are a valid tree whose levels use
    disjoint labels (no repeats); None otherwise.

    Each column is factorized in order of first appearance; sorting the rows by those codes from the
    root column down lists the leaves in preorder, and a node starts wherever its code changes.
    """
    width, n = len(columns), len(columns[0])
    if width < 2:
        return None
    codes: list[np.ndarray] = []
    uniques: list[np.ndarray] = []
    for col in columns:
        code, uniq = pd.factorize(np.array(col, dtype=object))
        codes.append(code.astype(np.int64))
        uniques.append(np.asarray(uniq, dtype=object))
    if len(uniques[0]) != n or len(uniques[-1]) != 1 or any((u == "").any() for u in uniques):
        return None
    every = np.concatenate(uniques)
    if len(pd.unique(every)) != len(every):
        return None  # a label on two levels: repeats, loops or leaf/group clashes need the row pass
    for j in range(width - 1):
        pairs = codes[j] * len(uniques[j + 1]) + codes[j + 1]
        if len(np.unique(pairs)) != len(uniques[j]):
            return None  # a node with two parents
    order = np.lexsort(codes[:-1])
    rank = np.arange(n)
    new: list[np.ndarray] = []  # new[j][r]: sorted row r starts a node at level j
    for j in range(width):
        sorted_codes = codes[j][order]
        fresh = np.ones(n, dtype=bool)
        fresh[1:] = sorted_codes[1:] != sorted_codes[:-1]
        new.append(fresh)
    per_row = np.sum(new, axis=0)
    offset = np.cumsum(per_row) - per_row
    total = int(per_row.sum())
    labels = np.empty(total, dtype=object)
    parent = np.full(total, -1, dtype=np.int64)
    above = np.zeros(n, dtype=np.int64)
    current_parent = np.full(n, -1, dtype=np.int64)
    for j in range(width - 1, -1, -1):  # root column first: preorder puts a node before its children
        ids = offset + above
        fresh = new[j]
        labels[ids[fresh]] = uniques[j][codes[j][order][fresh]]
        parent[ids[fresh]] = current_parent[fresh]
        # the node of this level that each sorted row lies under: the last one started at or before it
        current_parent = ids[np.maximum.accumulate(np.where(fresh, rank, 0))]
        above += fresh
    return labels.tolist(), parent.tolist()


def _row_by_row_tree(rows: Sequence[Sequence[str]]) -> tuple[dict[str, list[str]], str]:
    width = len(rows[0])
    root = rows[0][-1]
    leaf_line: dict[str, int] = {}
    parent_of: dict[str, str] = {}
    parent_line: dict[str, int] = {}
    children_of: dict[str, list[str]] = {}
    for line, row in enumerate(rows, start=1):
        if len(row) != width:
            if len(row) == 1 and row[0] == "":
                raise HierarchyError(
                    f"line {line} is empty", "remove the blank line (only a final one is allowed)"
                )
            raise HierarchyError(
                f"line {line} has {len(row)} column{'s' if len(row) != 1 else ''}, but line 1 has {width}",
                "every row needs one label per level, from the leaf to the root",
            )
        if "" in row:
            raise HierarchyError(
                f"line {line} has an empty label in column {list(row).index('') + 1}",
                "every level needs a label; check for a doubled separator",
            )
        leaf = row[0]
        if leaf in leaf_line:
            _raise_leaf_twice(rows, leaf)
        leaf_line[leaf] = line
        if row[-1] != root:
            _raise_roots(rows)
        for child, par in itertools.pairwise(row):
            if child == par:
                continue
            known = parent_of.get(child)
            if known is None:
                parent_of[child] = par
                parent_line[child] = line
                children_of.setdefault(par, []).append(child)
            elif known != par:
                _raise_loop(rows, line)
                raise HierarchyError(
                    f"node {child!r} has two parents: {known!r} (line {parent_line[child]}) "
                    f"and {par!r} (line {line})",
                    "a node generalizes to exactly one label; give the two nodes different labels "
                    "or fix the parent on one of the lines",
                )
    if root in parent_of:
        _raise_loop(rows, len(rows))
        raise HierarchyError(f"the root {root!r} has a parent {parent_of[root]!r} (line {parent_line[root]})")
    for leaf, line in leaf_line.items():
        kids = children_of.get(leaf)
        if kids:
            raise HierarchyError(
                f"label {leaf!r} is a leaf (line {line}) and also the generalization of {kids[0]!r} "
                f"(line {parent_line[kids[0]]}); a label names one node",
                f"rename the group, e.g. '{leaf} (group)', in the columns above the leaf level",
            )
    return children_of, root


def _raise_leaf_twice(rows: Sequence[Sequence[str]], leaf: str) -> None:
    lines: dict[str, list[int]] = {}
    for line, row in enumerate(rows, start=1):
        lines.setdefault(row[0], []).append(line)
    others = sum(1 for k, v in lines.items() if len(v) > 1 and k != leaf)
    also = f" ({others} other leaves are listed more than once too)" if others else ""
    raise HierarchyError(
        f"leaf {leaf!r} is listed {len(lines[leaf])} times, on {_lines(lines[leaf])}{also}",
        "keep exactly one row per leaf value",
    )


def _raise_roots(rows: Sequence[Sequence[str]]) -> None:
    first: dict[str, int] = {}
    for line, row in enumerate(rows, start=1):
        first.setdefault(row[-1], line)
    listed = ", ".join(f"{r!r} (first on line {n})" for r, n in list(first.items())[:10])
    more = " ..." if len(first) > 10 else ""
    raise HierarchyError(
        f"the hierarchy has {len(first)} roots: {listed}{more}",
        "every row must end with the same root label, e.g. '*'",
    )


def _raise_loop(rows: Sequence[Sequence[str]], upto: int) -> None:
    """Name the first row (up to line ``upto``) where a label recurs with other labels between."""
    for line, row in enumerate(rows[:upto], start=1):
        seen: dict[str, int] = {}
        for col, label in enumerate(row, start=1):
            if label in seen and row[col - 2] != label:
                raise HierarchyError(
                    f"line {line} has label {label!r} in columns {seen[label]} and {col} with other labels "
                    "between them, which would make it its own ancestor",
                    "a label may repeat only in adjacent columns (a value kept unchanged for a level)",
                )
            seen.setdefault(label, col)


# ---------------------------------------------------------------------------------------------- ARX CSV


def parse_arx(text_or_path: str | Path, sep: str = ";") -> Hierarchy:
    """Parse an ARX hierarchy CSV (SPEC §0.4): no header, one row per leaf, columns leaf → root.

    A :class:`~pathlib.Path`, or a one-line ``str`` naming an existing file, is read as UTF-8 (a BOM is
    ignored); any other ``str`` is the CSV text. ``\\r\\n`` line ends and trailing empty lines are
    accepted; labels are used exactly as written (no whitespace stripping).
    """
    if isinstance(text_or_path, Path):
        text = _read(text_or_path)
    elif text_or_path and "\n" not in text_or_path and sep not in text_or_path:
        path = Path(text_or_path)
        if not path.is_file():
            raise HierarchyError(f"hierarchy file {text_or_path} does not exist", "check the path")
        text = _read(path)
    else:
        text = text_or_path
    if not sep or "\n" in sep or "\r" in sep:
        raise HierarchyError(f"unusable separator {sep!r}", "give one character, e.g. --sep ';'")
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1].endswith("\r"):
        lines[-1] = lines[-1][:-1]
    while lines and lines[-1] == "":
        lines.pop()
    return Hierarchy._from_lines(lines, sep)


def _read(path: Path) -> str:
    return read_text(
        path, "hierarchy file", "an ARX hierarchy: ';'-separated lines leaf -> root", error=HierarchyError
    )


# ---------------------------------------------------------------------------------------------- intervals


def build_intervals(
    values: Iterable[Number] | Mapping[str, Number], widths: Sequence[Number], *, integer: bool = True
) -> Hierarchy:
    """Interval hierarchy for a numeric column (SPEC §0.4: ranges as internal nodes).

    Leaves are the distinct values, rendered as DuckDB renders ``CAST(v AS VARCHAR)`` ('39', '39.5'); a
    mapping label → value supplies the labels instead (what :func:`build_hierarchy` reads in SQL).
    Level k groups values into aligned intervals of width ``widths[k-1]`` (lo = floor(v/w)·w), labelled
    ``"lo-hi"`` (inclusive hi = lo+w-1) for integer data and ``"[lo, hi)"`` otherwise; the last level is
    the root ``*``. Each width must be a multiple of the previous one so the intervals nest. Levels that
    group the values identically are kept (the hierarchy then has a chain of single-child nodes).
    """
    ws = [_exact(w, "width") for w in widths]
    for i, w in enumerate(ws):
        if w <= 0:
            raise HierarchyError(f"interval width {widths[i]} is not positive", "use widths like 5, 10, 20")
        if integer and w.denominator != 1:
            raise HierarchyError(
                f"interval width {widths[i]} is not a whole number, but the data are integers",
                "use whole widths, or integer=False for non-integer data",
            )
        if i and w % ws[i - 1] != 0:
            raise HierarchyError(
                f"interval width {widths[i]} is not a multiple of the previous width {widths[i - 1]}, "
                "so the intervals would not nest",
                "make every width a multiple of the one before, e.g. 5, 10, 20, 40",
            )
    pairs = values.items() if isinstance(values, Mapping) else ((_duck_text(v), v) for v in values)
    leaves: dict[str, Fraction] = {}
    for label, v in pairs:
        x = _exact(v, "value")
        if integer and x.denominator != 1:
            raise HierarchyError(
                f"value {label} is not an integer", "build with integer=False for non-integer data"
            )
        leaves[label] = x
    if not leaves:
        raise HierarchyError("there are no values to build intervals from", "the column holds only NULLs")
    rows = []
    for label, x in sorted(leaves.items(), key=lambda kv: (kv[1], kv[0])):
        row = [label]
        for w in ws:
            lo = math.floor(x / w) * w
            row.append(f"{lo}-{lo + w - 1}" if integer else f"[{_num(lo)}, {_num(lo + w)})")
        row.append(ROOT_LABEL)
        rows.append(row)
    return Hierarchy(rows)


def _exact(v: object, what: str) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, int | float | Decimal | Fraction):
        raise HierarchyError(f"{what} {v!r} is not a number", "interval hierarchies need numeric values")
    if isinstance(v, float | Decimal) and not math.isfinite(v):
        raise HierarchyError(f"{what} {v} is not finite", "remove NaN and infinite values first")
    if isinstance(v, float):
        return Fraction(repr(v))  # the decimal the user sees, not the binary expansion (SPEC §0.3)
    return Fraction(v)


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else repr(float(x))


def _duck_text(v: Number) -> str:
    """How DuckDB prints CAST(v AS VARCHAR): 39 → '39', 39.0 (DOUBLE) → '39.0', Decimal('1.50') → '1.50'."""
    if isinstance(v, float):
        return repr(v)
    return str(v)


# ---------------------------------------------------------------------------------------------- database


@dataclass(frozen=True)
class HierarchyInfo:
    """One stored hierarchy (a row of ldiv.hierarchy)."""

    table: str
    column: str
    kind: str
    height: int
    leaves: int
    nodes: int
    source: str | None
    hierarchy_id: int

    def __str__(self) -> str:
        source = f", source {self.source}" if self.source else ""
        return (
            f"{self.table}.{self.column}: {self.kind}, {self.height} levels, {self.leaves} leaves, "
            f"{self.nodes} nodes{source}"
        )


def _key(table: Table, column: Column) -> dict[str, str]:
    return {"table_name": table.name, "column_name": column.name}


def store(
    db: Database, table: Table, column: Column, hierarchy: Hierarchy, kind: str, source: str | None
) -> int:
    """Write a hierarchy into ldiv.hierarchy/_node/_level in one transaction, replacing the one stored
    for the same (table, column); returns the new hierarchy_id."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    h = hierarchy
    key = _key(table, column)
    with db.transaction():
        db.run(render("taxonomy/delete_levels.sql", key))
        db.run(render("taxonomy/delete_nodes.sql", key))
        db.run(render("taxonomy/delete_hierarchy.sql", key))
        hid = int(
            db.scalar(
                render(
                    "taxonomy/insert_hierarchy.sql",
                    {
                        **key,
                        "kind": kind,
                        "height": h.levels,
                        "leaves": h.domain_size,
                        "nodes": len(h),
                        "source": source,
                    },
                )
            )
        )
        db.insert_frame(_NODE_TABLE, _node_frame(h, hid))
        db.insert_frame(_LEVEL_TABLE, _level_frame(h, hid))
    return hid


def _node_frame(h: Hierarchy, hid: int) -> pd.DataFrame:
    """Rows of ldiv.hierarchy_node: the preorder arrays of the model, one row per node."""
    n = len(h)
    ranges = h._numeric_ranges()
    lo, hi = ranges if ranges is not None else ([math.nan] * n, [math.nan] * n)
    parent = np.array(h._parent, dtype=np.float64)
    parent[0] = np.nan  # DuckDB reads NaN from a pandas float column as NULL
    return pd.DataFrame(
        {
            "hierarchy_id": np.full(n, hid, dtype=np.int32),
            "node_id": np.arange(n, dtype=np.int32),
            "label": np.array(h._labels, dtype=object),
            "parent_id": parent,
            "depth": np.array(h._depth, dtype=np.int32),
            "height": np.array(h._height, dtype=np.int32),
            "n_leaves": np.array(h._n_leaves, dtype=np.int32),
            "last_leaf": np.array(h._last, dtype=np.int32),
            "lo": np.array(lo, dtype=np.float64),
            "hi": np.array(hi, dtype=np.float64),
        }
    )


def _level_frame(h: Hierarchy, hid: int) -> pd.DataFrame:
    """Rows of ldiv.hierarchy_level (leaf, level, label), built level by level with numpy."""
    labels = np.array(h._labels, dtype=object)
    parent = np.array(h._parent, dtype=np.int64)
    parent[0] = 0  # walking up from the root stays at the root
    leaf_ids = np.flatnonzero(np.array(h._height, dtype=np.int32) == 0)
    n_leaves, levels = len(leaf_ids), h.levels
    columns = []
    current = leaf_ids
    for _ in range(levels):
        columns.append(labels[current])
        current = parent[current]
    label = np.concatenate(columns)
    if h._short_rows:
        position = {h._labels[i]: p for p, i in enumerate(leaf_ids.tolist())}
        for leaf, row in h._short_rows.items():
            label[np.arange(levels) * n_leaves + position[leaf]] = row
    return pd.DataFrame(
        {
            "hierarchy_id": np.full(n_leaves * levels, hid, dtype=np.int32),
            "leaf": np.tile(labels[leaf_ids], levels),
            "level": np.repeat(np.arange(levels, dtype=np.int32), n_leaves),
            "label": label,
        }
    )


def list_hierarchies(
    db: Database, table_name: str | None = None, column_name: str | None = None
) -> list[HierarchyInfo]:
    """Stored hierarchies, optionally of one table (its resolved name, e.g. ``main.adult``) and column."""
    return db.fetch(
        render("taxonomy/list.sql", {"table_name": table_name, "column_name": column_name}), HierarchyInfo
    )


def load(db: Database, table_name: str, column_name: str) -> Hierarchy | None:
    """The hierarchy stored for a (resolved table name, column name), or None."""
    found = list_hierarchies(db, table_name, column_name)
    if not found:
        return None
    info = found[0]
    nodes = db.df(render("taxonomy/nodes.sql", {"hierarchy_id": info.hierarchy_id}))
    parent = nodes["parent_id"].fillna(-1).astype("int64").tolist()
    short: dict[str, list[str]] = {}
    for leaf, label in db.rows(render("taxonomy/short_rows.sql", {"hierarchy_id": info.hierarchy_id})):
        short.setdefault(str(leaf), []).append(str(label))
    return Hierarchy._from_nodes([str(x) for x in nodes["label"].tolist()], parent, info.height, short)


def missing_values(db: Database, table: Table, column: Column, hierarchy_id: int) -> tuple[int, list[str]]:
    """Distinct non-NULL data values (as VARCHAR) that are not leaves of the hierarchy: (count, first 10
    in sorted order). Computed in SQL (DESIGN §6: a hierarchy missing a data value names the value)."""
    query = render(
        "taxonomy/missing_values.sql", {"hierarchy_id": hierarchy_id}, source=table.ref, column=column.ident
    )
    rows = db.rows(query)
    if not rows:
        return 0, []
    return int(rows[0][1]), [str(r[0]) for r in rows]


def import_hierarchy(
    db: Database, table_spelled: str, column_spelled: str, path: str | Path, sep: str = ";"
) -> HierarchyInfo:
    """Parse an ARX hierarchy file, check it covers every value of the column, and store it (replacing
    any previous one). Nothing is stored when a check fails."""
    table = resolve_table(db, table_spelled)
    refuse_ldiv_table(table.ref, "store a hierarchy for")
    column = table.column(column_spelled)
    path = Path(path)
    hierarchy = parse_arx(path, sep)
    with db.transaction():
        hid = store(db, table, column, hierarchy, "imported", str(path.resolve()))
        count, examples = missing_values(db, table, column, hid)
        if count:
            shown = ", ".join(repr(v) for v in examples)
            more = f" (showing the first {len(examples)})" if count > len(examples) else ""
            raise HierarchyError(
                f"hierarchy file {path} lacks {count} value{'s' if count != 1 else ''} of "
                f"{table.name}.{column.name}: {shown}{more}",
                f"add a row for each missing value to {path} (leaf{sep}level 1{sep}...{sep}root)",
            )
    return _info(db, table, column)


def build_hierarchy(
    db: Database, table_spelled: str, column_spelled: str, widths: Sequence[Number]
) -> HierarchyInfo:
    """Build and store an interval hierarchy for a numeric column from its distinct values (read in SQL)."""
    table = resolve_table(db, table_spelled)
    refuse_ldiv_table(table.ref, "store a hierarchy for")
    column = table.column(column_spelled)
    if not column.is_numeric:
        raise HierarchyError(
            f"column {column.name!r} of {table.name} is {column.data_type}, not numeric; "
            "interval hierarchies need numbers",
            "import an ARX hierarchy file for this column instead",
        )
    dtype = column.data_type.upper()
    fractional = dtype in ("FLOAT", "DOUBLE", "REAL") or (dtype.startswith("DECIMAL") and ",0)" not in dtype)
    integer = not fractional
    pairs = db.rows(render("taxonomy/distinct_values.sql", source=table.ref, column=column.ident))
    hierarchy = build_intervals({str(label): value for label, value in pairs}, widths, integer=integer)
    source = "intervals " + ", ".join(str(w) for w in widths)
    store(db, table, column, hierarchy, "intervals", source)
    return _info(db, table, column)


def _info(db: Database, table: Table, column: Column) -> HierarchyInfo:
    return list_hierarchies(db, table.name, column.name)[0]


def show_hierarchy(
    db: Database,
    table_spelled: str,
    column_spelled: str | None = None,
    weights: object = None,
    beta: object = 2,
) -> str:
    """Readable text: per hierarchy a summary line and the tree (indented by depth, leaf counts), at most
    SHOW_LINES tree lines: the deepest levels that fit are shown in full, the rest is counted. Then the
    stored sensitivity categories with their weights under ``weights`` (uniform by default) and ``beta``."""
    table = resolve_table(db, table_spelled)
    column = table.column(column_spelled) if column_spelled is not None else None
    infos = list_hierarchies(db, table.name, column.name if column else None)
    category_lines = show_categories(db, table, column, weights, beta)
    if not infos and not category_lines:
        what = f"{table.name}.{column.name}" if column else table.name
        return f"no hierarchies stored for {what}"
    out: list[str] = []
    for info in infos:
        out.append(str(info))
        nodes = db.df(render("taxonomy/nodes.sql", {"hierarchy_id": info.hierarchy_id}))
        out.extend(
            _tree_lines(
                nodes["label"].tolist(),
                nodes["depth"].tolist(),
                nodes["n_leaves"].tolist(),
                nodes["height"].tolist(),
            )
        )
    out.extend(category_lines)
    return "\n".join(out)


def _leaves(n: int) -> str:
    return "1 leaf" if n == 1 else f"{n} leaves"


def _tree_lines(labels: list[str], depths: list[int], n_leaves: list[int], heights: list[int]) -> list[str]:
    """Preorder lines indented by depth. A tree longer than SHOW_LINES is cut at the deepest depth whose
    nodes (with all shallower ones) fit, never above depth 1, and a last line counts what was left out."""
    keep: Sequence[int] = range(len(labels))
    if len(labels) > SHOW_LINES:
        room = SHOW_LINES - 1  # one line for the "not shown" note
        per_depth: dict[int, int] = {}
        for d in depths:
            per_depth[d] = per_depth.get(d, 0) + 1
        cut, used = 1, 0
        for d in sorted(per_depth):
            used += per_depth[d]
            if used > room:
                break
            cut = max(cut, d)
        keep = [i for i in range(len(labels)) if depths[i] <= cut][:room]
    lines = [
        "  " * (depths[i] + 1) + (labels[i] if heights[i] == 0 else f"{labels[i]} ({_leaves(n_leaves[i])})")
        for i in keep
    ]
    if len(lines) < len(labels):
        lines.append(f"  ... {len(labels) - len(lines)} more nodes not shown")
    return lines


# ------------------------------------------------------------------- sensitivity categories (SPEC §3.1)

_CATEGORY_TABLE = TableRef("sa_category", "ldiv")


@dataclass(frozen=True)
class CategoriesInfo:
    """The sensitivity categories stored for one SA column (rows of ldiv.sa_category)."""

    table: str
    column: str
    categories: dict[str, int]
    unused: int = 0  # stored values that do not occur in the column
    source: str | None = None

    def __str__(self) -> str:
        k = max(self.categories.values()) if self.categories else 0
        unused = f", {self.unused} of them not in the data" if self.unused else ""
        source = f", source {self.source}" if self.source else ""
        return (
            f"{self.table}.{self.column}: sensitivity categories, {k} categories, "
            f"{len(self.categories)} values{unused}{source}"
        )


def check_category_ranks(categories: Mapping[Any, int], where: str) -> None:
    """Ranks must be the integers 1..K with none skipped (1 = most sensitive, SPEC §3.1)."""
    ranks = sorted(set(categories.values()))
    if not ranks:
        raise HierarchyError(f"{where} holds no category")
    gaps = [r for r in range(1, ranks[-1] + 1) if r not in ranks]
    if gaps:
        raise HierarchyError(
            f"{where} skips category {', '.join(map(str, gaps))} of 1..{ranks[-1]}",
            "number the categories 1, 2, ..., K without gaps (1 = most sensitive)",
        )


def import_categories(
    db: Database, table_spelled: str, column_spelled: str, categories: str | Path | Mapping[str, int]
) -> CategoriesInfo:
    """Store the sensitivity categories of an SA column (a ``value;category`` file or a mapping),
    replacing any stored before, after checking that every non-NULL value of the column has one and that
    the ranks are 1..K. Nothing is stored when a check fails."""
    from .inputs import read_categories

    table = resolve_table(db, table_spelled)
    refuse_ldiv_table(table.ref, "store sensitivity categories for")
    column = table.column(column_spelled)
    if isinstance(categories, str | Path):
        source: str | None = str(Path(categories).resolve())
        cats = read_categories(categories)
        where = f"categories file {categories}"
    else:
        source, where = None, "the categories"
        cats = {}
        for v, r in categories.items():
            if v is None:
                raise HierarchyError(
                    "a NULL SA value cannot be stored with a category", "give it in the job/API"
                )
            try:
                rank = None if isinstance(r, bool) or int(r) != r else int(r)
            except (TypeError, ValueError):
                rank = None
            if rank is None or rank < 1:
                raise HierarchyError(f"category of {v!r} must be a positive integer rank, got {r!r}")
            cats[str(v)] = rank
    check_category_ranks(cats, where)
    key = _key(table, column)
    frame = pd.DataFrame(
        {
            "table_name": table.name,
            "column_name": column.name,
            "value": list(cats),
            "category": np.array(list(cats.values()), dtype=np.int32),
        }
    )
    with db.transaction():
        db.run(render("taxonomy/categories_delete.sql", key))
        db.insert_frame(_CATEGORY_TABLE, frame)
        ctx = {"source": table.ref, "column": column.ident}
        missing = db.rows(render("taxonomy/categories_uncovered.sql", key, **ctx))
        if missing:
            total = int(missing[0][2])
            shown = ", ".join(f"{str(v)!r} ({int(n)} rows)" for v, n, _ in missing)
            more = f" (showing the first {len(missing)})" if total > len(missing) else ""
            raise HierarchyError(
                f"{where} gives no category to {total} value{'s' if total != 1 else ''} of "
                f"{table.name}.{column.name}: {shown}{more}",
                "add a line value;category for each (1 = most sensitive)",
            )
        unused = int(db.scalar(render("taxonomy/categories_unused.sql", key, **ctx)))
    return CategoriesInfo(table.name, column.name, cats, unused, source)


def stored_categories(db: Database, table: Table, column: Column) -> dict[str, int] | None:
    """The categories stored for (table, column); for a recorded release without its own, those of the
    release's source table (the release keeps the SA column's name). None when there are none."""
    key = _key(table, column)
    rows = db.rows(render("taxonomy/categories_of.sql", key))
    if not rows:
        src = db.rows(render("taxonomy/release_source.sql", {"name": table.name}))
        if src:
            key = {"table_name": str(src[0][0]), "column_name": column.name}
            rows = db.rows(render("taxonomy/categories_of.sql", key))
    return {str(v): int(r) for v, r in rows} if rows else None


def show_categories(
    db: Database, table: Table, column: Column | None, weights: object = None, beta: object = 2
) -> list[str]:
    """Text lines: per SA column with stored categories, each category with its weight under the scheme
    (uniform, sensitivity with β, or explicit) and its values."""
    from .privacy.l_alpha import category_weights

    columns = [column] if column is not None else list(table.columns)
    out: list[str] = []
    for col in columns:
        rows = db.rows(render("taxonomy/categories_of.sql", _key(table, col)))
        if not rows:
            continue
        cats = {str(v): int(r) for v, r in rows}
        w = category_weights(cats, weights, beta)
        scheme = "uniform" if weights is None else weights if isinstance(weights, str) else "explicit"
        scheme += f", beta {beta}" if scheme == "sensitivity" else ""
        out.append(
            f"{table.name}.{col.name}: {max(cats.values())} sensitivity categories, {len(cats)} values "
            f"(1 = most sensitive; weights: {scheme})"
        )
        for r in sorted(set(cats.values())):
            values = [v for v, c in cats.items() if c == r]
            shown = ", ".join(values[:12]) + (f", ... ({len(values)} values)" if len(values) > 12 else "")
            wr = w[r]
            out.append(f"  {r}  weight {wr!s:>7} ({float(wr):.4f})  {shown}")
    return out
