"""``optimal``: the optimal full-domain transformation (one hierarchy level per QI, as ARX's Flash finds
it) that satisfies the privacy model with at most ``--suppression-limit`` of the rows deleted, minimizing
``--metric``.

How the work is split (DESIGN §4): SQL compresses the table once into the (leaf per QI, SA values,
class) → rows histogram (``sql/optimal/histogram.sql``); numpy searches the lattice on it
(:mod:`.lattice`: best-first by a monotone lower bound, predictive tagging, exact judging of every node it
does not tag, :mod:`.judge` per model, :mod:`.cost` per metric); the chosen levels are then published by
the same code as ``full-domain --levels`` (:mod:`ldiv_db.algorithms.full_domain.levels`), so the release is labelled,
judged in SQL, written, reconciled and verified as any other, and its metrics equal the search's cost.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core.options import Option
from ...errors import BadInput, InternalError
from ..base import Algorithm, AnonymizeRequest, Partitioning
from ..full_domain.levels import SUPPRESSION_LIMIT, apply_levels
from . import histogram
from .cost import METRICS, Metric, MetricName
from .judge import build_judge
from .lattice import Result, Search

MAX_LATTICE = 5_000_000


@dataclass(frozen=True)
class OptimalOptions:
    suppression_limit: Fraction  # share of the rows that may be deleted, in [0, 1]
    metric: MetricName
    class_column: str | None


def parse_options(request: AnonymizeRequest) -> OptimalOptions:
    """The search's options, validated by their declaration (``--suppression-limit``, ``--metric``);
    ``--metric cm`` needs the pipeline's ``--class-column``."""
    name = str(request.options["metric"])
    class_column = request.class_column or None
    if name == "cm" and not class_column:
        raise BadInput("--metric cm needs the class attribute", "name it with --class-column")
    metric: MetricName = METRICS[METRICS.index(name)]
    return OptimalOptions(request.options["suppression_limit"], metric, class_column)


def _details(res: Result, metric: Metric, levels: dict[str, int], coded: histogram.Coded) -> dict[str, Any]:
    assert res.best is not None
    bound = res.proof_bound
    return {
        "levels": levels,
        "metric": metric.name,
        "cost": metric.value(res.best.cost),
        "deleted_rows": res.best.deleted,
        "lattice_size": res.lattice_size,
        "nodes_checked": res.checked,
        "nodes_probed": res.probes,
        "nodes_relaxed": res.relaxed,
        "nodes_tagged": res.tagged,
        "nodes_pruned_by_monotonicity": res.pruned_infeasible,
        "nodes_feasible_by_monotonicity": res.tagged_feasible,
        "nodes_bounded": res.bounded,
        "nodes_expanded": res.expanded,
        "optimality_bound": None if bound is None else metric.value(bound),
        "optimality_proof": "lattice exhausted"
        if bound is None
        else "every node not expanded has a lower bound above the chosen node's cost (or ties and loses the tie-break)",
        "histogram_cells": coded.cells,
    }


class Optimal(Algorithm):
    name = "optimal"
    generalizes_by_hierarchy = True
    default_model = "distinct"
    summary = (
        "the optimal full-domain levels under a suppression limit, minimizing ARX Loss/LM/DM/AECS/CM/entropy"
    )
    options = (
        SUPPRESSION_LIMIT,
        Option(
            "metric",
            "choice",
            "optimal: loss (ARX Loss), lm, dm, aecs, cm (with --class-column), or entropy (ARX non-uniform entropy)",
            default="loss",
            choices=METRICS,
        ),
    )

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0, cpu0 = time.perf_counter(), time.process_time()
        opts = parse_options(request)
        inputs = request.inputs
        coded = histogram.build(request, opts.class_column)
        size = 1
        for per_level in coded.space.codes:
            size *= len(per_level)
        if size > MAX_LATTICE:
            raise BadInput(
                f"the lattice has {size} nodes, more than the optimal search takes ({MAX_LATTICE})",
                "drop QIs or use hierarchies with fewer levels",
            )
        request.model.prepare(request.db)
        judge = build_judge(request.model, coded.values, coded.totals)
        metric = Metric(opts.metric, coded.space.base, coded.cover, coded.domain, coded.space.codes)
        max_deleted = int(opts.suppression_limit * inputs.rows)  # floor: deleted ≤ limit·rows
        t_hist, cpu_hist = time.perf_counter(), time.process_time()
        progress = request.progress

        def report(r: Result) -> None:
            progress.update(r.expanded, r.lattice_size, f"nodes checked {r.checked}, tagged {r.tagged}")

        res = Search(coded.space, judge, metric, max_deleted).run(on_progress=report)
        t_search, cpu_search = time.perf_counter(), time.process_time()
        if res.best is None:
            raise BadInput(
                f"no full-domain transformation satisfies {request.model.describe()} with at most "
                f"{float(opts.suppression_limit) * 100:g}% of the rows deleted (not even every QI at its root)",
                "allow more suppression with --suppression-limit, or weaken the model (a lower l or k)",
            )
        qi = [c.name for c in inputs.qi]
        levels = dict(zip(qi, res.best.levels, strict=True))
        part = apply_levels(request, levels, opts.suppression_limit)
        if part.details["deleted_rows"] != res.best.deleted:
            raise InternalError(
                f"optimal: levels {res.best.levels} delete {part.details['deleted_rows']} rows in SQL, "
                f"{res.best.deleted} in the search"
            )
        t_apply, cpu_apply = time.perf_counter(), time.process_time()
        part.details = {
            **_details(res, metric, levels, coded),
            "seconds_histogram": round(t_hist - t0, 4),
            "seconds_search": round(t_search - t_hist, 4),
            "seconds_apply": round(t_apply - t_search, 4),
            # CPU seconds of the process (all its threads), telling the work apart from waiting on a shared machine
            "cpu_seconds_histogram": round(cpu_hist - cpu0, 4),
            "cpu_seconds_search": round(cpu_search - cpu_hist, 4),
            "cpu_seconds_apply": round(cpu_apply - cpu_search, 4),
        }
        return part
