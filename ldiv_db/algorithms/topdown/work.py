"""The rows of a top-down run, in numpy (the search's core), and the SQL that feeds and publishes them.

SQL reads every row's QI values and SA value once (``topdown/rows.sql``) and each QI's leaf -> label map
per level (``taxonomy/level_map.sql``); from then on each row is integer codes: its SA value, and per QI
and level the code of its label. A round groups the active rows by (node, label one level down on the
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
import pandas as pd

from ...errors import HierarchyError, InternalError
from ...sqlgen.render import TableRef, render
from .judge import Child, Judge

if TYPE_CHECKING:
    from ..base import AnonymizeRequest

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
        frame = db.df(render("topdown/rows.sql", source=self.source, qi=self.qi, sa=self.sa_ident), bulk=True)
        self.rid = frame["rid"].to_numpy(dtype=np.int64)
        self.sa, self.sa_values = factorize(frame["a1"])
        judge.admit(self.sa_values)
        whole = np.bincount(self.sa, minlength=len(self.sa_values))
        judge.set_baseline({v: int(n) for v, n in zip(self.sa_values, whole, strict=True)})
        self.codes: list[list[IntArray]] = []  # [QI][level] -> label code per row
        self.labels: list[list[list[str | None]]] = []  # [QI][level] -> label per code
        for i, (col, hid) in enumerate(zip(inputs.qi, hids, strict=True)):
            leaf_code, leaves = factorize(frame[f"q{i + 1}"])
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
                self.codes[i].append(code[leaf_code])
                self.labels[i].append(labels)
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
        g, v, r = g[order], v[order], self.rows[sel][order].tolist()
        cuts = [0, *(np.nonzero((np.diff(g) != 0) | (np.diff(v) != 0))[0] + 1).tolist(), len(r)]
        for start, end in itertools.pairwise(cuts):
            kids[int(g[start])].rows[self.sa_values[int(v[start])]] = r[start:end]

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

    def publish(self, levels: dict[int, tuple[int, ...]]) -> tuple[TableRef, TableRef]:
        """The assignment and the labels: one group per output node (``levels``: node -> its hierarchy
        level per QI), every QI value published at its node's level."""
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
        labels = db.work_table("td_labels")
        ctx = {"source": self.source, "qi": self.qi, "sa": self.sa_ident}
        db.run(
            render("topdown/labels.sql", {"hids": self.hids}, target=labels, final=final, nodes=nodes, **ctx)
        )
        assignment = db.work_table("td_assignment")
        db.run(render("topdown/assign.sql", target=assignment, labels=labels))
        return assignment, labels
