"""Top-down specialization over the QI hierarchies (Sun, Li, Wang, FGCS 2010, Algorithm 1; SPEC §3.3), for
the (l,α) models and the plain ones: distinct, entropy, recursive (c,l), frequency l-diversity and
k-anonymity, which need no sensitivity categories.

Every row starts at the root (each QI at its hierarchy's top level); each round specializes every active
node one level down on one attribute, keeps the children that satisfy the model, sends the others back to
the parent and repairs it (:mod:`.search`). The judge of a candidate child, and of a repaired parent, is
the model's own group test on the SA value counts — the definitions of ``ldiv_db/privacy`` that ``ldiv
check`` applies (:mod:`.judge`, which also documents the repair key). The rounds run over integer codes in
numpy (:mod:`.work`); SQL reads the rows and hierarchies once and publishes each output node as one group
at the node's hierarchy levels (recoding 'labels'); the release goes through the pipeline's write,
reconcile and verify like every other.

NULL (with ``--null-as-value``, as everywhere): a NULL SA value is one more value (and, for the (l,α)
models, needs a category); a NULL QI value is a value of its own, a leaf right below the root:
specializing the attribute puts those rows into their own child (they stay together, whatever further
levels say), and they are published as the root label, the hierarchy having no node for NULL. Nodes that
so share their labels form one published QI-group, their union, which every model here keeps (distinct
values, weights, entropy, the recursive and frequency tests and group size are all monotone under union);
the pipeline verifies the labels' groups too.
"""

from __future__ import annotations

import time

from ...core.inputs import refuse_folded_sa
from ...errors import BadInput, HierarchyError
from ...taxonomy import missing_values
from ..base import Algorithm, AnonymizeRequest, Partitioning
from .judge import AlphaJudge, Child, Judge, PlainJudge, judge_for, repair
from .search import Node, Search
from .work import Work

__all__ = ["AlphaJudge", "Child", "Judge", "Node", "PlainJudge", "TopDown", "judge_for", "repair"]


def hierarchy_ids(request: AnonymizeRequest) -> list[int]:
    """Every QI's stored hierarchy, covering every value of the data (else a BadInput / HierarchyError
    naming the fix)."""
    db, inputs = request.db, request.inputs
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
    return hids


class TopDown(Algorithm):
    name = "topdown"
    default_model = "distinct-alpha"
    summary = (
        "top-down specialization over the QI hierarchies (Sun, Li, Wang 2010, Algorithm 1): the (l,α) models, "
        "or distinct, entropy, recursive, frequency, k-anonymity without categories"
    )

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0 = time.perf_counter()
        judge = judge_for(request.model, len(request.inputs.sa))
        request.model.prepare(request.db)
        refuse_folded_sa(request.db, request.inputs, "top-down specialization")  # SA coded by spelling
        hids = hierarchy_ids(request)
        top = tuple(max(int(request.heights.get(c.name, 1)) - 1, 0) for c in request.inputs.qi)
        search = Search(Work(request, hids, top, judge), judge, top)

        def progress(rounds: int, active: int) -> None:
            request.progress.update(rounds, note=f"topdown round {rounds}: {active} nodes")

        levels = search.run(progress)
        assignment, labels, group_labels = search.work.publish(levels)
        return Partitioning(
            assignment=assignment,
            recoding="labels",
            labels=labels,
            group_labels=group_labels,
            details={
                "rounds": search.rounds,
                "nodes": len(levels),
                "algorithm_seconds": round(time.perf_counter() - t0, 4),
            },
        )
