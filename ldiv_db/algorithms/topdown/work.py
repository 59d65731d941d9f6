"""The SQL side of top-down specialization (``sql/topdown``): the work tables of the rows' progress, one
round's candidate children judged by the model's own verdict, the routing of every row by the round's
decisions, and the published labels. Row ids reach Python only for the nodes with a failing child."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from ...evaluator import SqlEvaluator
from ...privacy import LAlpha
from ...render import Ident, TableRef, render
from .judge import Child

if TYPE_CHECKING:
    from ..base import AnonymizeRequest

Route = tuple[int, str | None, int, int, int]  # (node, child label, destination node, attr, level)


class Work:
    """The work tables of one top-down run and the statements that read and move its rows."""

    def __init__(self, request: AnonymizeRequest, hids: Sequence[int]) -> None:
        db, inputs = request.db, request.inputs
        self.db = db
        self.model = request.model
        self.hids = list(hids)
        self.source = inputs.table.ref
        self.qi = [c.ident for c in inputs.qi]
        self.sa = inputs.sa[0].ident
        self.active = db.work_table("td_active")
        self.cands = db.work_table("td_candidates")
        self.final = db.work_table("td_final")
        self.route = db.work_table("td_route")
        self.moved = db.work_table("td_moved")
        self.nodes = db.work_table("td_nodes")
        self.categories: TableRef | None = None
        db.run(render("topdown/final_table.sql", target=self.final))

    def seed(self, attr: int | None, level: int) -> None:
        """Every row at the root (node 0): active, specializing QI ``attr`` (0-based) to ``level``, or, when
        no QI can be specialized (``attr`` None), final."""
        if attr is None:
            self.db.run(render("topdown/seed_final.sql", target=self.final, source=self.source))
            return
        self.db.run(render("topdown/active_table.sql", target=self.active))
        seed = {"attr": attr + 1, "level": level}
        self.db.run(render("topdown/seed_active.sql", seed, target=self.active, source=self.source))

    def children(self) -> dict[int, dict[str | None, Child]]:
        """This round's candidate children of every active node, judged by the model's own verdict."""
        ctx = {"source": self.source, "qi": self.qi, "sa": self.sa}
        self.db.run(
            render(
                "topdown/candidates.sql", {"hids": self.hids}, target=self.cands, active=self.active, **ctx
            )
        )
        # a NULL SA value passed resolve_inputs only with --null-as-value: count it as a value
        ev = SqlEvaluator(
            self.db,
            self.cands,
            [Ident("node"), Ident("child")],
            [Ident("a1")],
            null_as_value=True,
            prefix="td",
        )
        ev.build()
        verdict = ev.work("verdict")
        self._verdict(ev, verdict)
        out: dict[int, dict[str | None, Child]] = {}
        q = render(
            "topdown/children.sql",
            candidates=self.cands,
            hist=ev.hist,
            verdict=verdict,
            exact_ids=ev.exact_ids,
        )
        for node, label, v, n, ok, rids in self.db.rows(q):
            key = None if label is None else str(label)
            child = out.setdefault(int(node), {}).setdefault(key, Child(key, bool(ok)))
            child.n[v] = int(n)
            if rids is not None:
                child.rows[v] = list(rids)
        return out

    def _verdict(self, ev: SqlEvaluator, target: TableRef) -> None:
        """``target(gid, ok, ...)``: the model's verdict per candidate child (the (l,α) models check their
        categories once, in the first round, which holds every row)."""
        model = self.model
        if isinstance(model, LAlpha):
            if self.categories is None:
                self.categories = model.category_table(ev)
            model.verdict(ev, target, self.categories)
        else:
            model.apply(ev, target)

    def advance(self, route: list[Route], moved: list[int], moved_to: list[int], more: bool) -> None:
        """Route the round's rows: to a final node (``finish.sql``) or, when ``more``, to the next round's
        plan (``advance.sql``); the rows repair moved go to their parent, whatever their child's route."""
        self.db.run(render("topdown/route_table.sql", target=self.route))
        self.db.insert_frame(
            self.route, pd.DataFrame(route, columns=["node", "child", "dest", "attr", "level"])
        )
        self.db.run(render("topdown/moved_table.sql", target=self.moved))
        if moved:
            self.db.insert_frame(self.moved, pd.DataFrame({"rid": moved, "dest": moved_to}))
        where: dict[str, Any] = {"candidates": self.cands, "route": self.route, "moved": self.moved}
        self.db.run(render("topdown/finish.sql", final=self.final, **where))
        if more:
            self.db.run(render("topdown/advance.sql", target=self.active, **where))

    def publish(self, levels: dict[int, tuple[int, ...]]) -> tuple[TableRef, TableRef]:
        """The assignment and the labels: one group per output node (``levels``: node -> its hierarchy
        level per QI), every QI value published at its node's level."""
        gid_of = {n: i for i, n in enumerate(sorted(levels), 1)}
        frame = pd.DataFrame({"node": list(gid_of), "gid": list(gid_of.values())})
        for pos in range(len(self.qi)):
            frame[f"lv{pos + 1}"] = [levels[n][pos] for n in gid_of]
        self.db.run(render("topdown/nodes_table.sql", target=self.nodes, qi=self.qi))
        self.db.insert_frame(self.nodes, frame)
        labels = self.db.work_table("td_labels")
        ctx = {"source": self.source, "qi": self.qi, "sa": self.sa}
        self.db.run(
            render(
                "topdown/labels.sql",
                {"hids": self.hids},
                target=labels,
                final=self.final,
                nodes=self.nodes,
                **ctx,
            )
        )
        assignment = self.db.work_table("td_assignment")
        self.db.run(render("topdown/assign.sql", target=assignment, labels=labels))
        return assignment, labels
