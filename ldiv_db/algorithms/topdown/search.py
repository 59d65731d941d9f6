"""The rounds of top-down specialization (SPEC §3.3, Algorithm 1 [P + D]): each round specializes every
active node one level down on one attribute (round-robin in QI order after the attribute that created the
node, skipping attributes already at a leaf [D]). Children that fail the model go back to the parent; if
the parent then fails, it is repaired with rows from good children (:func:`.judge.repair`), or, if no row
can be spared, the whole node stays at the parent. The children are formed and judged over the rows'
codes (:class:`.work.Work`); the choices are made here and sent back as a (node, child) -> destination
route plus the rows repair moved."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ...errors import BadInput
from .judge import Child, Judge, repair
from .work import Route, Work


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


@dataclass
class Round:
    """One round's decisions: where each candidate child's rows go, the rows repair moved (and to which
    node), and the next round's active nodes with the attribute each specializes."""

    route: list[Route] = field(default_factory=list)
    moved: list[int] = field(default_factory=list)
    moved_to: list[int] = field(default_factory=list)
    next_active: dict[int, int] = field(default_factory=dict)


def _child_order(child: Child) -> tuple[bool, str]:
    """Children in label order, the NULL child first."""
    return (child.label is not None, child.label or "")


class Search:
    """Top-down specialization from the root (every QI at level ``top``) until no node can specialize."""

    def __init__(self, work: Work, judge: Judge, top: tuple[int, ...]) -> None:
        self.work = work
        self.judge = judge
        self.nodes: dict[int, Node] = {0: Node(top, -1)}
        self.final: list[int] = []
        self.rounds = 0

    def run(self, progress: Callable[[int, int], None]) -> dict[int, tuple[int, ...]]:
        """Specialize round by round; returns every output node with its levels."""
        root_attr = self.nodes[0].next_attr()
        if root_attr is None:  # every QI is a leaf already: the root is the only node
            self.final.append(0)
            self.work.seed(None, 0)
        else:
            self.work.seed(root_attr, self.nodes[0].levels[root_attr] - 1)
        active = {} if root_attr is None else {0: root_attr}
        while active:
            self.rounds += 1
            children = self.work.children()
            progress(self.rounds, len(active))
            if self.rounds == 1:
                self._check_root(children.get(0, {}))
            step = Round()
            for node_id in sorted(active):
                kids = sorted(children.get(node_id, {}).values(), key=_child_order)
                self._decide(node_id, active[node_id], kids, step)
            self.work.advance(step.route, step.moved, step.moved_to, bool(step.next_active))
            active = step.next_active
        return {n: self.nodes[n].levels for n in sorted(set(self.final))}

    def _check_root(self, kids: dict[str | None, Child]) -> None:
        """SPEC §3.3 [D]: the root (the whole table) must satisfy the model."""
        whole: Counter[str | None] = Counter()
        for k in kids.values():
            whole.update(k.counts())
        if not self.judge.ok(dict(whole)):
            raise BadInput(
                f"the whole table does not satisfy {self.judge.model.describe()}, so no generalization can",
                self.judge.hint(),
            )

    def _decide(self, node_id: int, attr: int, kids: list[Child], step: Round) -> None:
        """One node's round: failing children go back to the node, which is then repaired (or keeps every
        row) and output; the good children become nodes, final when no attribute can specialize further."""
        parent: Counter[str | None] = Counter()
        good: list[Child] = []
        for k in kids:
            if k.ok:
                good.append(k)
            else:
                parent.update(k.counts())
                step.route.append((node_id, k.label, node_id, 0, 0))
        if parent:
            taken = repair(self.judge, dict(parent), good)
            if taken is None:  # P keeps all its rows and gets no children
                step.route.extend((node_id, k.label, node_id, 0, 0) for k in good)
                good = []
            else:
                step.moved.extend(taken)
                step.moved_to.extend([node_id] * len(taken))
            self.final.append(node_id)
        node = self.nodes[node_id]
        levels = tuple(lv - 1 if i == attr else lv for i, lv in enumerate(node.levels))
        for k in good:
            if k.size() == 0:
                step.route.append((node_id, k.label, node_id, 0, 0))  # every row was moved to P
                continue
            cid = len(self.nodes)
            self.nodes[cid] = child = Node(levels, attr)
            nxt = child.next_attr()
            if nxt is None:
                self.final.append(cid)
                step.route.append((node_id, k.label, cid, 0, 0))
            else:
                step.next_active[cid] = nxt
                step.route.append((node_id, k.label, cid, nxt + 1, levels[nxt] - 1))
