"""Top-down specialization for the (l,α)-diversity family (Sun, Li, Wang, FGCS 2010, Algorithm 1;
SPEC §3.3).

Every row starts at the root (each QI at its hierarchy's top level). Each round specializes every active
node one level down on one attribute (round-robin in QI order after the attribute that created the node,
skipping attributes already at a leaf [D]). Children that fail the model go back to the parent; if the
parent then fails, it is repaired with rows from good children (SPEC's [D] key: an SA value new to the
parent, then the larger weight, then the largest row id), or, if no row can be spared, the whole node
stays at the parent. The round's candidate children are formed and judged in SQL (``sql/topdown``, one
batch per round over all nodes); the choices between them are made here, and sent back as a small
(node, child) -> destination table plus the rows repair moved, from which SQL routes every row
(``finish.sql``, ``advance.sql``). Row ids reach Python only for nodes with a failing child. Each output
node is one group, published at the node's hierarchy levels (recoding 'labels').

NULL (with ``--null-as-value``, as everywhere): a NULL SA value is one more value and needs a category; a
NULL QI value is a value of its own, a leaf right below the root: specializing the attribute puts those
rows into their own child (they stay together, whatever further levels say), and they are published as
the root label, the hierarchy having no node for NULL. Nodes that so share their labels form one
published QI-group, their union, which every (l,α) model keeps (distinct values, weights, entropy and the
recursive test are all monotone under union); the pipeline verifies the labels' groups too.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ...errors import BadInput, HierarchyError
from ...evaluator import SqlEvaluator
from ...privacy.entropy import TOLERANCE, entropy
from ...privacy.l_alpha import LAlpha
from ...render import Ident, TableRef, render
from ...taxonomy import missing_values
from ..base import Algorithm, AnonymizeRequest, Partitioning


@dataclass
class Child:
    """A candidate child of a node: its verdict, its count per SA value and, for the nodes that may need
    a repair, its row ids per SA value."""

    label: str | None  # None: the NULL value of the attribute (with --null-as-value), a child of the root
    ok: bool
    n: dict[str | None, int] = field(default_factory=dict)
    rows: dict[str | None, list[int]] = field(default_factory=dict)

    def counts(self) -> dict[str | None, int]:
        return {v: c for v, c in self.n.items() if c}

    def size(self) -> int:
        return sum(self.n.values())


@dataclass
class Node:
    levels: tuple[int, ...]
    last: int  # 0-based QI position that created the node; -1 for the root

    def next_attr(self) -> int | None:
        d = len(self.levels)
        for step in range(1, d + 1):
            i = (self.last + step) % d
            if self.levels[i] > 0:
                return i
        return None


class Judge:
    """``model.group_ok`` (SPEC §3.2) for the hot repair loop: integer weights over a common denominator,
    no per-call validation (the SA values were checked against the categories by ``model.apply``)."""

    def __init__(self, model: LAlpha) -> None:
        self.model = model
        den = math.lcm(*(w.denominator for w in model.weights.values()))
        self.den = den
        # None is the NULL SA value (with --null-as-value): it needs a category like any other value
        self.w = {v: int(model.weights[r] * den) for v, r in model.categories.items()}
        self.l = model.ls[0]
        self.a_num, self.a_den = model.alpha.numerator, model.alpha.denominator
        self.cat = dict(model.categories)
        self.ln_l = math.log(self.l)

    def weight(self, v: str | None) -> int:
        return self.w[v]

    def ok(self, counts: Mapping[str | None, int]) -> bool:
        present = [(v, n) for v, n in counts.items() if n > 0]
        if len(present) < self.l:
            return False
        total = sum(n * self.w[v] for v, n in present)
        if total * self.a_den < self.a_num * self.den:
            return False
        variant = self.model.variant
        if variant == "distinct":
            return True
        if variant == "entropy" and self.model.entropy_over == "values":
            units = [n for _, n in present]
        else:
            by_cat: dict[int, int] = {}
            for v, n in present:
                by_cat[self.cat[v]] = by_cat.get(self.cat[v], 0) + n
            units = list(by_cat.values())
        return self._units_ok(units)

    def _units_ok(self, units: list[int]) -> bool:
        """The entropy or recursive test on the units (category or value counts, all > 0)."""
        if self.model.variant == "entropy":
            return entropy(units) >= self.ln_l - TOLERANCE
        c = self.model.c
        assert c is not None
        r = sorted(units, reverse=True)
        return len(r) >= self.l and r[0] * c.denominator < c.numerator * sum(r[self.l - 1 :])

    def spare(self, counts: Mapping[str | None, int]) -> list[str | None]:
        """The values v for which ``ok(counts − one row of v)`` holds, in ``counts`` order. Equal to testing
        each with :meth:`ok`, but the entropy / recursive test depends only on v's category (or, over
        values, on v's count), so it runs once per category (count) instead of once per value."""
        present = {v: n for v, n in counts.items() if n > 0}
        d = len(present)
        total = sum(n * self.w[v] for v, n in present.items())
        variant = self.model.variant
        over_values = variant == "entropy" and self.model.entropy_over == "values"
        by_cat: dict[int, int] = {}
        if variant != "distinct" and not over_values:
            for v, n in present.items():
                by_cat[self.cat[v]] = by_cat.get(self.cat[v], 0) + n
        memo: dict[int, bool] = {}
        out: list[str | None] = []
        for v, n in present.items():
            if d - (n == 1) < self.l or (total - self.w[v]) * self.a_den < self.a_num * self.den:
                continue
            if variant != "distinct":
                key = n if over_values else self.cat[v]
                verdict = memo.get(key)
                if verdict is None:
                    if over_values:
                        units = list(present.values())
                        units.remove(n)
                        left = n - 1
                    else:
                        units = [m for k, m in by_cat.items() if k != key]
                        left = by_cat[key] - 1
                    if left > 0:
                        units.append(left)
                    verdict = memo[key] = self._units_ok(units)
                if not verdict:
                    continue
            out.append(v)
        return out


def repair(judge: Judge, parent: dict[str | None, int], good: list[Child]) -> list[int] | None:
    """SPEC §3.3 repair(P, good) [D], in place. ``parent`` maps SA value -> count (the rows pushed back).
    Returns the row ids moved to P, or None when no row can be spared (the caller then moves every good
    child back to P). Which values a child can spare is recomputed only for the child that just gave a
    row (the others are unchanged), so a repair costs O(children + moves) model tests, not their product."""
    if judge.ok(parent):
        return []
    for child in good:
        for rids in child.rows.values():
            rids.sort()  # the largest row id last (the last tie-break), popped from the end
    spare = [judge.spare(child.n) for child in good]
    moved: list[int] = []
    while not judge.ok(parent):
        best: tuple[bool, int, int] | None = None
        pick = -1
        pick_v: str | None = None
        for i, child in enumerate(good):
            for v in spare[i]:
                key = (not parent.get(v), judge.weight(v), child.rows[v][-1])
                if best is None or key > best:
                    best, pick, pick_v = key, i, v
        if pick < 0:
            return None
        child = good[pick]
        moved.append(child.rows[pick_v].pop())
        child.n[pick_v] -= 1
        parent[pick_v] = parent.get(pick_v, 0) + 1
        spare[pick] = judge.spare(child.n)
    return moved


def _child_order(child: Child) -> tuple[bool, str]:
    """Children in label order, the NULL child first."""
    return (child.label is not None, child.label or "")


class TopDown(Algorithm):
    name = "topdown"
    default_model = "distinct-alpha"
    summary = "(l,α) top-down specialization over the QI hierarchies (Sun, Li, Wang 2010, Algorithm 1)"

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0 = time.perf_counter()
        db, inputs, model = request.db, request.inputs, request.model
        if not isinstance(model, LAlpha):
            raise BadInput(
                f"topdown runs the (l,α) models, not {model.name}",
                "use --model distinct-alpha, entropy-alpha or recursive-alpha with --alpha and --categories",
            )
        qi = [c.name for c in inputs.qi]
        heights: dict[str, int] = dict(request.heights)
        hids: list[int] = []
        for col in inputs.qi:
            hid = request.hierarchy_ids.get(col.name)
            if hid is None:
                raise BadInput(
                    f"QI {col.name!r} has no hierarchy; topdown specializes every QI along its hierarchy",
                    f"import one: ldiv hierarchy import DB --table {inputs.table.name} --column '{col.name}' FILE"
                    f" (a numeric column can get one with: ldiv hierarchy build DB --table {inputs.table.name}"
                    f" --column '{col.name}' --intervals 5,10,20,40)",
                )
            count, examples = missing_values(db, inputs.table, col, hid)
            if count:
                raise HierarchyError(
                    f"the hierarchy of {col.name!r} lacks {count} value(s) of the data: "
                    + ", ".join(repr(v) for v in examples),
                    f"re-import it with a row for each: ldiv hierarchy import DB --table {inputs.table.name} "
                    f"--column '{col.name}' FILE",
                )
            hids.append(hid)
        top = tuple(max(int(heights.get(q, 1)) - 1, 0) for q in qi)
        d = len(qi)

        active_t = db.work_table("td_active")
        cands_t = db.work_table("td_candidates")
        final_t = db.work_table("td_final")
        route_t = db.work_table("td_route")
        moved_t = db.work_table("td_moved")
        nodes_t = db.work_table("td_nodes")
        ctx: dict[str, Any] = {
            "source": inputs.table.ref,
            "qi": [c.ident for c in inputs.qi],
            "sa": inputs.sa[0].ident,
        }
        db.run(render("topdown/final_table.sql", target=final_t))

        judge = Judge(model)
        nodes: dict[int, Node] = {0: Node(top, -1)}
        final_nodes: list[int] = []
        root_attr = nodes[0].next_attr()
        active: dict[int, int] = {}  # node -> 0-based attribute it specializes this round
        if root_attr is None:  # every QI is a leaf already: the root is the only node
            final_nodes.append(0)
            db.run(render("topdown/seed_final.sql", target=final_t, source=inputs.table.ref))
        else:
            active[0] = root_attr
            db.run(render("topdown/active_table.sql", target=active_t))
            seed = {"attr": root_attr + 1, "level": top[root_attr] - 1}
            db.run(render("topdown/seed_active.sql", seed, target=active_t, source=inputs.table.ref))
        rounds = 0
        categories: TableRef | None = None
        while active:
            rounds += 1
            db.run(render("topdown/candidates.sql", {"hids": hids}, target=cands_t, active=active_t, **ctx))
            # a NULL SA value passed resolve_inputs only with --null-as-value: count it as a value
            ev = SqlEvaluator(
                db, cands_t, [Ident("node"), Ident("child")], [Ident("a1")], null_as_value=True, prefix="td"
            )
            ev.build()
            verdict = ev.work("verdict")
            if categories is None:  # the first round holds every row: every SA value is checked once
                categories = model.category_table(ev)
            model.verdict(ev, verdict, categories)
            children: dict[int, dict[str | None, Child]] = {}
            for node, label, v, n, ok, rids in db.rows(
                render(
                    "topdown/children.sql",
                    candidates=cands_t,
                    hist=ev.hist,
                    verdict=verdict,
                    exact_ids=ev.exact_ids,
                )
            ):
                key = None if label is None else str(label)
                child = children.setdefault(int(node), {}).setdefault(key, Child(key, bool(ok)))
                child.n[v] = int(n)
                if rids is not None:
                    child.rows[v] = list(rids)
            request.progress.update(rounds, note=f"topdown round {rounds}: {len(active)} nodes")

            next_active: dict[int, int] = {}
            route: list[tuple[int, str | None, int, int, int]] = []  # (node, child, dest, attr, level)
            moved: list[int] = []
            moved_to: list[int] = []

            for node_id in sorted(active):
                node = nodes[node_id]
                attr = active[node_id]
                kids = sorted(children.get(node_id, {}).values(), key=_child_order)
                if node_id == 0 and rounds == 1:
                    whole: Counter[str | None] = Counter()
                    for k in kids:
                        whole.update(k.counts())
                    if not judge.ok(dict(whole)):
                        raise BadInput(
                            f"the whole table does not satisfy {model.describe()}, so no generalization can",
                            "lower --l or --alpha, or check the categories",
                        )
                parent: Counter[str | None] = Counter()
                good: list[Child] = []
                for k in kids:
                    if k.ok:
                        good.append(k)
                    else:
                        parent.update(k.counts())
                        route.append((node_id, k.label, node_id, 0, 0))
                if parent:
                    taken = repair(judge, dict(parent), good)
                    if taken is None:  # P keeps all its rows and gets no children
                        for k in good:
                            route.append((node_id, k.label, node_id, 0, 0))
                        good = []
                    else:
                        moved.extend(taken)
                        moved_to.extend([node_id] * len(taken))
                    final_nodes.append(node_id)
                for k in good:
                    if k.size() == 0:
                        route.append((node_id, k.label, node_id, 0, 0))  # every row was moved to P
                        continue
                    levels = tuple(lv - 1 if i == attr else lv for i, lv in enumerate(node.levels))
                    child_node = Node(levels, attr)
                    cid = len(nodes)
                    nodes[cid] = child_node
                    nxt = child_node.next_attr()
                    if nxt is None:
                        final_nodes.append(cid)
                        route.append((node_id, k.label, cid, 0, 0))
                    else:
                        next_active[cid] = nxt
                        route.append((node_id, k.label, cid, nxt + 1, levels[nxt] - 1))
            db.run(render("topdown/route_table.sql", target=route_t))
            db.insert_frame(route_t, pd.DataFrame(route, columns=["node", "child", "dest", "attr", "level"]))
            db.run(render("topdown/moved_table.sql", target=moved_t))
            if moved:
                db.insert_frame(moved_t, pd.DataFrame({"rid": moved, "dest": moved_to}))
            where: dict[str, Any] = {"candidates": cands_t, "route": route_t, "moved": moved_t}
            db.run(render("topdown/finish.sql", final=final_t, **where))
            if next_active:
                db.run(render("topdown/advance.sql", target=active_t, **where))
            active = next_active

        gid_of = {n: i for i, n in enumerate(sorted(set(final_nodes)), 1)}
        frame = pd.DataFrame({"node": list(gid_of), "gid": list(gid_of.values())})
        for pos in range(d):
            frame[f"lv{pos + 1}"] = [nodes[n].levels[pos] for n in gid_of]
        db.run(render("topdown/nodes_table.sql", target=nodes_t, qi=ctx["qi"]))
        db.insert_frame(nodes_t, frame)
        labels = db.work_table("td_labels")
        db.run(
            render(
                "topdown/labels.sql",
                {"hids": hids},
                target=labels,
                final=final_t,
                nodes=nodes_t,
                **ctx,
            )
        )
        assignment = db.work_table("td_assignment")
        db.run(render("topdown/assign.sql", target=assignment, labels=labels))
        return Partitioning(
            assignment=assignment,
            recoding="labels",
            labels=labels,
            details={
                "rounds": rounds,
                "nodes": len(set(final_nodes)),
                "algorithm_seconds": round(time.perf_counter() - t0, 4),
            },
        )
