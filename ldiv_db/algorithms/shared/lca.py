"""An algorithm's own LCA labels per group (recoding 'lca'), from the arrays it already holds.

``release/labels_lca.sql`` labels a group by joining its rows back to the source and looking the LCA of
every QI's leaves up in the taxonomy, on the release's path. An
algorithm that priced its classes by the same LCA (BSGI) holds every row's leaf ids and group, so the
labels are one sort and a few array lookups: the smallest and largest leaf id of a group span its
leaves, and the LCA is the deepest ancestor of the smallest whose subtree reaches the largest (SPEC §0.4,
the same rule as the template's ``node_id <= lo AND last_leaf >= hi``). The result has the template's
shape (``gid, q1..qd``) and is published exactly as the template's would be; a test holds the two equal.

Numeric QIs of an integer type are labelled as the template does, ``lo-hi`` or the single value (an
integer's text form is the same in Python and in SQL). Only where the arrays say the same as the
template would: every QI a stored taxonomy with distinct labels whose codes are leaves, or an integer
column (a flat QI, or a numeric one of another type, is labelled from the source values' text form,
which is the engine's), and the embedded engine (a server engine would have every group's labels sent
over the wire, where its SQL computes them beside the data). Otherwise :func:`lca_labels` returns None
and the pipeline runs the template.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ...sqlgen.render import TableRef, render
from .trees import IntArray, Tree

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...core.catalog import Column
    from ...db import Database


INTEGER_TYPES = frozenset(
    ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")
)


RADIX_LIMIT = 2**48  # group ids below it are sorted by :func:`stable_order`'s 16-bit passes


@dataclass(frozen=True)
class Integers:
    """A numeric QI of an integer column: codes are ranks, ``values[code]`` the value."""

    values: IntArray


def lca_labels(
    db: Database,
    labellers: Sequence[Tree | Integers | None],
    codes: Callable[[], Sequence[IntArray]],
    gid: IntArray,
) -> TableRef | None:
    """The table (gid, q1..qd) of every group's labels, or None (see the module docstring).
    ``labellers``: per QI its taxonomy, its integer values, or None (neither: the template labels it);
    ``codes()``: per QI every published row's code (leaf node id, or value rank), asked for only when
    every QI can be labelled here; ``gid``: every published row's group id as written."""
    if not db.embedded or not len(gid) or any(t is None for t in labellers):
        return None
    order = stable_order(gid)
    sorted_gid = gid[order]
    starts = np.flatnonzero(np.r_[True, sorted_gid[1:] != sorted_gid[:-1]])
    columns: dict[str, Any] = {"gid": sorted_gid[starts].astype(np.int64)}
    for i, (how, code) in enumerate(zip(labellers, codes(), strict=True), start=1):
        column = _column(how, code[order], starts)
        if column is None:
            return None
        columns[f"q{i}"] = column
    target = db.work_table("release_group_labels")
    db.run(
        render("release/group_labels.sql", target=target, qi=[f"q{i}" for i in range(1, len(labellers) + 1)])
    )
    db.insert_columns(target, columns)
    return target


def stable_order(keys: IntArray) -> IntArray:
    """``np.argsort(keys, kind="stable")``: for keys in 0..2^48 as up to three stable passes over 16 bits
    each, lowest first (numpy sorts 16-bit integers stably by radix; int64 by a merge sort). Each pass
    keeps the order of the keys it sees as equal, so the result is the one stable order."""
    top = int(keys.max()) if len(keys) else 0
    if not len(keys) or int(keys.min()) < 0 or top >= RADIX_LIMIT:
        return np.argsort(keys, kind="stable")
    order = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    shift = 16
    while top >> shift:
        digit = ((keys.take(order) >> shift) & 0xFFFF).astype(np.uint16)
        order = order.take(np.argsort(digit, kind="stable"))
        shift += 16
    return order


def _column(how: Tree | Integers | None, codes: IntArray, starts: IntArray) -> npt.NDArray[np.object_] | None:
    """One QI's label per group (runs of ``codes`` from ``starts``), as an array of texts."""
    lo, hi = np.minimum.reduceat(codes, starts), np.maximum.reduceat(codes, starts)
    if isinstance(how, Integers):
        spans, inverse = np.unique(lo * len(how.values) + hi, return_inverse=True)
        a, b = how.values[spans // len(how.values)].tolist(), how.values[spans % len(how.values)].tolist()
        text = [str(x) if x == y else f"{x}-{y}" for x, y in zip(a, b, strict=True)]
        return np.array(text, dtype=object)[inverse.ravel()]
    if how is None or not _leaves(how, codes):
        return None
    labels = how.arrays.labels
    if len(set(labels)) != len(labels):
        return None  # a label on two nodes: the template maps values by label, the arrays by node
    return np.array(labels, dtype=object)[lowest_covering(how, lo, hi)]


def _leaves(tree: Tree, codes: IntArray) -> bool:
    last = tree.arrays.last
    return bool(codes.min() >= 0 and codes.max() < tree.arrays.size and (last[codes] == codes).all())


def lowest_covering(tree: Tree, lo: IntArray, hi: IntArray) -> IntArray:
    """Per pair, the deepest ancestor of leaf ``lo`` whose subtree reaches leaf ``hi`` (``lo <= hi`` in
    preorder): the LCA of every leaf between them."""
    last, parent = tree.arrays.last, tree.arrays.parent
    node = lo.copy()
    up = last[node] < hi
    while up.any():  # at most the taxonomy's height rounds
        node[up] = parent[node[up]]
        up = last[node] < hi
    return node


def labeller(attr: Any, column: Column) -> Tree | Integers | None:
    """How :func:`lca_labels` labels a QI priced by ``attr`` (a cost model's attribute: ``kind``,
    ``tree``, ``values``, ``integral``): its taxonomy, its integer values, or None."""
    if attr.kind == "hierarchy":
        return attr.tree  # type: ignore[no-any-return]
    if attr.kind == "numeric" and attr.integral and column.data_type.upper() in INTEGER_TYPES:
        return Integers(np.asarray(attr.values, dtype=np.int64))
    return None
