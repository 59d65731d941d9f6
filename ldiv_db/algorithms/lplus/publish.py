"""The chosen cut back to SQL: its decisions per histogram cell (partition, deleted rows, suppressed SA)
assign the rows (``sql/lplus/assign.sql``), form the published labels from the hierarchy
(``labels.sql``) and are cross-checked against the rows (``summary.sql``); and the run's details."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ... import taxonomy
from ...errors import InternalError
from ...sqlgen.render import TableRef, render
from ...util.lazy import library
from ..base import AnonymizeRequest
from .histogram import Histogram
from .problem import Decisions, Result

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")


def assign(
    request: AnonymizeRequest, decisions: Decisions, result: Result, h: Histogram, hids: Sequence[int]
) -> tuple[TableRef, TableRef, dict[str, Any]]:
    """(assignment, labels, summary counts) of the cut ``result.cut``, from its per-cell ``decisions``
    (:meth:`Search.apply`; the search itself is freed before the release is written)."""
    db, inputs = request.db, request.inputs
    assert result.cut is not None
    d = len(inputs.qi)
    g, gid, dele, supp, cost = decisions
    if cost != result.cost:
        raise InternalError(f"l+-Optimize: the chosen cut re-evaluates to {cost}, not {result.cost}")
    hist = h.frame
    leaf = h.problem.leaf
    # leaf and cut node ids go in their narrow type (every engine widens them to the table's BIGINT):
    # 64-bit copies of the leaf ids were 48 bytes a cell with six QIs (4.5M cells at 10M amplified rows)
    frame = pd.DataFrame({f"l{i}": leaf[i - 1] for i in range(1, d + 1)})
    frame["s"] = hist["s"]
    frame["k"] = hist["k"]
    for i in range(d):
        frame[f"g{i + 1}"] = g[i]
    frame["gid"] = gid
    frame["n_delete"] = dele
    frame["suppress"] = supp
    cells = db.work_table("lplus_cells")
    db.run(render("lplus/cells_table.sql", target=cells, d=d))
    db.insert_frame(cells, frame)
    summary = db.records(render("lplus/summary.sql", cells=cells, rows=h.rows, d=d))[0]
    if int(summary["deleted"]) != int(dele.sum()) or int(summary["rows"]) != inputs.rows:
        raise InternalError("l+-Optimize: the histogram decisions do not reconcile with the rows")
    assignment = db.work_table("lplus_assignment")
    db.run(render("lplus/assign.sql", target=assignment, rows=h.rows, cells=cells, d=d))
    labels = db.work_table("lplus_labels")
    db.run(render("lplus/labels.sql", {"hids": list(hids)}, target=labels, rows=h.rows, cells=cells, d=d))
    return assignment, labels, summary


def details(
    request: AnonymizeRequest,
    opts: Mapping[str, Any],
    result: Result,
    h: Histogram,
    hierarchies: Sequence[taxonomy.Hierarchy],
    summary: dict[str, Any],
) -> dict[str, Any]:
    """The run's details: the cut, its exact cost, bound and gap, the search's counts."""
    assert result.cost is not None and result.cut is not None
    space, unit = opts["space"], result.unit
    cut_labels = {
        col.name: [hy.labels[u] for u in nodes] if space == "full-subtree" else nodes[0]
        for col, hy, nodes in zip(request.inputs.qi, hierarchies, result.cut, strict=True)
    }
    exact = Fraction(result.cost, unit)
    lower = None if result.lower_bound is None else Fraction(result.lower_bound, unit)
    best = Fraction(result.top[0][0], unit) if result.top else exact
    out: dict[str, Any] = {
        "cut" if space == "full-subtree" else "levels": cut_labels,
        "metric": opts["metric"],
        "suppression": opts["suppression"],
        "space": space,
        "value_order": opts["value_order"],
        "cost": float(exact),
        "cost_exact": str(exact),
        "optimal": result.optimal,
        "lower_bound": None if lower is None else str(lower),
        "gap": None if lower is None else float(best - lower),
        "cuts_total": _count(result.total_cuts),
        "cuts_visited": result.visited,
        "pruned_share": result.pruned_share,
        "thresholds": {
            "NULL" if v is None else str(v): str(th) for v, th in zip(h.sa_values, h.thetas, strict=True)
        },
        "partitions": int(summary["published_partitions"]),
        "deleted_rows": int(summary["deleted"]),
        "sa_suppressed_rows": int(summary["sa_suppressed"]),
        "histogram_cells": len(h.frame),
        "sub_searches": result.sub_searches,
        "merge_counts": result.merge_counts,
        "seconds_merging": round(result.merge_seconds, 4),
    }
    return out


def _count(n: int) -> int | str:
    """``n`` exactly where Python writes it as digits (up to its 4,300-digit limit), else its magnitude as
    text (``"about 4.20e+5122"``): a hierarchy of very many leaves has more full-subtree cuts than that."""
    if n.bit_length() <= _EXACT_BITS:
        return n
    exp = math.log10(n)
    return f"about {10 ** (exp - int(exp)):.2f}e+{int(exp)}"


_EXACT_BITS = 14_000  # 4,215 decimal digits at most
