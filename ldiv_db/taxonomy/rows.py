"""ARX rows to a tree: validate one row per leaf (leaf first, root last) and return the node labels in
preorder with each node's parent id. :func:`_fast_tree` handles the common case with numpy;
:func:`_tree_from_rows` walks row by row and names the first problem."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import HierarchyError
from ..util.lazy import library

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:
    np = library("numpy")
    pd = library("pandas")


def _lines(numbers: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:10])
    more = f" and {len(numbers) - 10} more" if len(numbers) > 10 else ""
    return f"line{'s' if len(numbers) > 1 else ''} {shown}{more}"


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
