"""The rows of a top-down run, in numpy (the search's core), and the SQL that feeds and publishes them.

SQL numbers each column's values (``topdown/values.sql``), reads every row once as the codes of its QI
values and SA value (``topdown/rows.sql``: integers, not text, cross into Python) and each QI's leaf ->
label map per level (``taxonomy/level_map.sql``); from then on each row is integer codes: its SA value,
and per QI and level the code of its label. A round groups the active rows by (node, label one level down on the
attribute the node specializes) — the candidate children — counts their SA values, and asks the judge
(the model's own group test) for each child's verdict; the search's decisions come back as a route per
child plus the rows repair moved, and move every row at once. At the end SQL publishes each row at its
output node's levels (``topdown/labels.sql``). Why not one SQL statement per round, as before: a round
is ~10 statements, and on Adult's 15 rounds their planning alone cost more than the whole numpy search.

A NULL QI value (with ``--null-as-value``) has the label None at every level (its own child of the
root, published as the root label by ``labels.sql``); a NULL SA value is the value None.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ...errors import HierarchyError, InternalError
from ...sqlgen.render import TableRef, render
from ...util.lazy import library
from .judge import Child, Judge, RowStack

if TYPE_CHECKING:
    import pandas as pd

    from ..base import AnonymizeRequest
else:
    pd = library("pandas")

IntArray = npt.NDArray[np.int64]
Route = tuple[int, str | None, int, int, int]  # (node, child label, destination node, attr, level)


def factorize(values: Any) -> tuple[IntArray, list[str | None]]:
    """Codes 0..k-1 in first-appearance order and the value of each code; NULL is the value None."""
    codes, uniques = pd.factorize(pd.Series(values, dtype=object))
    labels: list[str | None] = [str(u) for u in uniques]
    out = np.asarray(codes, dtype=np.int64)
    if (out < 0).any():
        out = np.where(out < 0, len(labels), out)
        labels.append(None)
    return out, labels


def _coded(codes: Any, values: list[str | None]) -> tuple[IntArray, list[str | None]]:
    """A column of ``topdown/rows.sql`` as :func:`factorize` gives it: the codes, and the value of each
    (None for NULL's code, the one after the last value, where some row holds it)."""
    out = np.asarray(codes, dtype=np.int64)
    if len(out) and int(out.max()) >= len(values):
        return out, [*values, None]
    return out, values


class Work:
    """Every row's codes and progress: active rows with their node and the (attribute, level) it
    specializes to this round, and the output node of the rows already final."""

    def __init__(
        self, request: AnonymizeRequest, hids: Sequence[int], top: Sequence[int], judge: Judge
    ) -> None:
        db, inputs = request.db, request.inputs
        self.db, self.judge, self.hids = db, judge, list(hids)
        self.source = inputs.table.ref
        self.qi = [c.ident for c in inputs.qi]
        self.sa_ident = inputs.sa[0].ident
        columns = [*self.qi, self.sa_ident]
        values = db.work_table("td_values")
        db.run(render("topdown/values.sql", target=values, source=self.source, columns=columns))
        named: list[list[str | None]] = [[] for _ in columns]
        # as many values as rows where a QI is unique: a bulk fetch (batched under Spark's fetch bound)
        for col, _, value in db.rows(render("topdown/value_list.sql", values=values), bulk=True):
            named[int(col) - 1].append(None if value is None else str(value))
        frame = db.arrays(
            render("topdown/rows.sql", source=self.source, values=values, columns=columns), bulk=True
        )
        self.rid = frame.pop("rid").astype(np.int64, copy=False)
        self.sa, self.sa_values = _coded(frame.pop("a1"), named[-1])
        judge.admit(self.sa_values)
        whole = np.bincount(self.sa, minlength=len(self.sa_values))
        judge.set_baseline({v: int(n) for v, n in zip(self.sa_values, whole, strict=True)})
        self.codes: list[list[npt.NDArray[np.int32]]] = []  # [QI][level] -> label code per row
        self.labels: list[list[list[str | None]]] = []  # [QI][level] -> label per code
        self.top_codes: list[npt.NDArray[np.int32] | None] = []  # [QI] -> root-level label code per row
        self.top_labels: list[list[str | None]] = []
        for i, (col, hid) in enumerate(zip(inputs.qi, hids, strict=True)):
            leaf_code, leaves = _coded(frame.pop(f"q{i + 1}"), named[i])
            self.codes.append([])
            self.labels.append([])
            for level in range(top[i]):
                mapping = dict(
                    db.rows(
                        render("taxonomy/level_map.sql", {"hierarchy_id": hid, "level": level}), bulk=True
                    )
                )
                missing = [leaf for leaf in leaves if leaf is not None and leaf not in mapping]
                if missing:
                    raise HierarchyError(
                        f"the hierarchy of {col.name!r} has no level-{level} label for {missing[0]!r}",
                        f"re-import it with a complete row for each value: ldiv hierarchy import DB --table "
                        f"{inputs.table.name} --column '{col.name}' FILE",
                    )
                code, labels = factorize([None if leaf is None else mapping[leaf] for leaf in leaves])
                self.codes[i].append(code[leaf_code].astype(np.int32))  # a QI level has few labels
                self.labels[i].append(labels)
            # the root level, which only publishing reads (a leaf it lacks is published as NULL: by row)
            top_map = dict(
                db.rows(render("taxonomy/level_map.sql", {"hierarchy_id": hid, "level": top[i]}), bulk=True)
            )
            if all(leaf is None or leaf in top_map for leaf in leaves):
                code, labels = factorize([None if leaf is None else top_map[leaf] for leaf in leaves])
                self.top_codes.append(code[leaf_code].astype(np.int32))
            else:
                self.top_codes.append(None)
                labels = []
            self.top_labels.append(labels)
        self.depth = 1 + max(top, default=0)  # above every level
        self.radix = 1 + max((len(lab) for per_qi in self.labels for lab in per_qi), default=1)
        n = len(self.rid)
        self.final_node = np.full(n, -1, dtype=np.int64)
        self.rows: IntArray = np.arange(n, dtype=np.int64)  # active rows (indices, ascending = row id order)
        self.node: IntArray = np.zeros(n, dtype=np.int64)
        self.attr: IntArray = np.zeros(n, dtype=np.int64)  # 0-based QI position
        self.level: IntArray = np.zeros(n, dtype=np.int64)
        self._inv: IntArray = np.zeros(0, dtype=np.int64)
        self._group: dict[tuple[int, str | None], int] = {}

    def seed(self, attr: int | None, level: int) -> None:
        """Every row at the root (node 0): active, specializing QI ``attr`` (0-based) to ``level``, or, when
        no QI can be specialized (``attr`` None), final."""
        if attr is None:
            self.final_node[:] = 0
            self.rows = self.rows[:0]
        else:
            self.attr[:] = attr
            self.level[:] = level

    def children(self) -> dict[int, dict[str | None, Child]]:
        """This round's candidate children of every active node, with their SA value counts and verdicts,
        and, for the passing children of nodes with a failing child (the rows repair may move), their row
        indices per SA value."""
        rows = self.rows
        label = np.empty(len(rows), dtype=np.int64)
        step = self.attr * self.depth + self.level
        for key in np.unique(step).tolist():
            mask = step == key
            label[mask] = self.codes[key // self.depth][key % self.depth][rows[mask]]
        _, first, inv = np.unique(self.node * self.radix + label, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        m = len(self.sa_values)
        pair, counts = np.unique(inv * m + self.sa[rows], return_counts=True)
        kids: list[Child] = []
        self._group = {}
        g_node = self.node[first]
        node_of: list[int] = g_node.tolist()
        heads = zip(
            node_of, self.attr[first].tolist(), self.level[first].tolist(), label[first].tolist(), strict=True
        )
        for g, (node, a, lv, code) in enumerate(heads):
            name = self.labels[a][lv][code]
            kids.append(Child(name, False))
            self._group[(node, name)] = g
        values = self.sa_values
        for p, c in zip(pair.tolist(), counts.tolist(), strict=True):
            kids[p // m].n[values[p % m]] = c
        failing = set()
        for g, kid in enumerate(kids):
            kid.ok = self.judge.ok(kid.n)
            if not kid.ok:
                failing.add(node_of[g])
        self._inv = inv
        self._donor_rows(kids, g_node, failing)
        out: dict[int, dict[str | None, Child]] = {}
        for g, kid in enumerate(kids):
            out.setdefault(node_of[g], {})[kid.label] = kid
        return out

    def _donor_rows(self, kids: list[Child], g_node: IntArray, failing: set[int]) -> None:
        """Row indices per SA value of the passing children of nodes with a failing child."""
        donor = np.array([kid.ok for kid in kids], dtype=bool) & np.isin(g_node, list(failing))
        sel = np.nonzero(donor[self._inv])[0]
        if not len(sel):
            return
        g, v = self._inv[sel], self.sa[self.rows[sel]]
        order = np.lexsort((self.rows[sel], v, g))
        g, v, r = g[order], v[order], self.rows[sel][order]
        cuts = [0, *(np.nonzero((np.diff(g) != 0) | (np.diff(v) != 0))[0] + 1).tolist(), len(r)]
        for start, end in itertools.pairwise(cuts):
            kids[int(g[start])].rows[self.sa_values[int(v[start])]] = RowStack(r[start:end])

    def advance(self, route: list[Route], moved: list[int], moved_to: list[int], more: bool) -> None:
        """Move the round's rows by its decisions: to a final node, or on to the next round's node with the
        attribute (1-based; 0 = final) and level it specializes; the rows repair moved go to their parent."""
        n_groups = len(self._group)
        dest = np.full(n_groups, -1, dtype=np.int64)
        attr = np.zeros(n_groups, dtype=np.int64)
        level = np.zeros(n_groups, dtype=np.int64)
        for node, name, d, a, lv in route:
            g = self._group[(node, name)]
            dest[g], attr[g], level[g] = d, a, lv
        if (dest < 0).any():
            raise InternalError("topdown: a candidate child was given no route")
        r_dest, r_attr, r_level = dest[self._inv], attr[self._inv], level[self._inv]
        if moved:
            pos = np.searchsorted(self.rows, np.asarray(moved, dtype=np.int64))
            r_dest[pos] = moved_to
            r_attr[pos] = 0
        final = r_attr == 0
        self.final_node[self.rows[final]] = r_dest[final]
        keep = ~final
        self.rows, self.node = self.rows[keep], r_dest[keep]
        self.attr, self.level = r_attr[keep] - 1, r_level[keep]
        if not more and len(self.rows):
            raise InternalError("topdown: rows are active after the last round")

    def publish(
        self, levels: dict[int, tuple[int, ...]]
    ) -> tuple[TableRef, TableRef | None, TableRef | None]:
        """The assignment and the labels: one group per output node (``levels``: node -> its hierarchy
        level per QI), every QI value published at its node's level. The labels are one row per group
        (gid, q1..qd) where every row of a node has the same label vector, which is always so but for a
        hierarchy whose root level lacks a leaf or names the root otherwise than its node 0 does; else
        one row per row (``topdown/labels.sql``). Returns (assignment, labels by row, labels by group)."""
        if (self.final_node < 0).any():
            raise InternalError("topdown: a row reached no output node")
        db = self.db
        final = db.work_table("td_final")
        db.run(render("topdown/final_table.sql", target=final))
        db.insert_frame(final, pd.DataFrame({"rid": self.rid, "node": self.final_node}))
        gid_of = {n: i for i, n in enumerate(sorted(levels), 1)}
        frame = pd.DataFrame({"node": list(gid_of), "gid": list(gid_of.values())})
        for pos in range(len(self.qi)):
            frame[f"lv{pos + 1}"] = [levels[n][pos] for n in gid_of]
        nodes = db.work_table("td_nodes")
        db.run(render("topdown/nodes_table.sql", target=nodes, qi=self.qi))
        db.insert_frame(nodes, frame)
        by_group = self._group_labels(levels, list(gid_of))
        self.codes, self.top_codes = [], []  # the rows are in SQL now
        labels: TableRef | None = None
        group_labels: TableRef | None = None
        if by_group is not None:
            group_labels = db.work_table("td_group_labels")
            qi = [f"q{i}" for i in range(1, len(self.qi) + 1)]
            db.run(render("release/group_labels.sql", target=group_labels, qi=qi))
            db.insert_frame(group_labels, by_group)
        else:
            labels = db.work_table("td_labels")
            ctx = {"source": self.source, "qi": self.qi, "sa": self.sa_ident}
            db.run(
                render(
                    "topdown/labels.sql", {"hids": self.hids}, target=labels, final=final, nodes=nodes, **ctx
                )
            )
        assignment = db.work_table("td_assignment")
        db.run(render("topdown/assign.sql", target=assignment, final=final, nodes=nodes))
        return assignment, labels, group_labels

    def _group_labels(self, levels: dict[int, tuple[int, ...]], nodes: list[int]) -> pd.DataFrame | None:
        """Per output node (``nodes`` in gid order) its label per QI as ``topdown/labels.sql`` labels its
        rows — the label at the node's level, a NULL value the root's — or None where some node's rows
        would get two labels (or a node has no row)."""
        node_ids = np.asarray(nodes, dtype=np.int64)
        pos = np.searchsorted(node_ids, self.final_node)
        order = np.argsort(pos, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(pos[order]) != 0])
        if len(starts) != len(node_ids) or any(t is None for t in self.top_codes):
            return None
        columns: dict[str, Any] = {"gid": np.arange(1, len(nodes) + 1, dtype=np.int64)}
        for i, hid in enumerate(self.hids):
            root = self.db.rows(render("topdown/root_label.sql", {"hierarchy_id": hid}))
            root_label = None if not root or root[0][0] is None else str(root[0][0])
            per_level = [*self.codes[i], self.top_codes[i]]
            names = [
                [root_label if x is None else x for x in lab] for lab in [*self.labels[i], self.top_labels[i]]
            ]
            distinct = list(dict.fromkeys(x for lab in names for x in lab))
            ids = {x: k for k, x in enumerate(distinct)}
            node_level = np.asarray([levels[n][i] for n in nodes], dtype=np.int64)
            row_level = node_level[pos]
            key = np.empty(len(pos), dtype=np.int64)
            for lv in np.unique(node_level).tolist():
                mask = row_level == lv
                codes = per_level[lv]
                assert codes is not None
                key[mask] = np.asarray([ids[x] for x in names[lv]], dtype=np.int64)[codes[mask]]
            sorted_key = key[order]
            lo = np.minimum.reduceat(sorted_key, starts)
            if (lo != np.maximum.reduceat(sorted_key, starts)).any():
                return None
            columns[f"q{i + 1}"] = [distinct[k] for k in lo.tolist()]
        return pd.DataFrame(columns)
