"""The release details of a BSGI run: the greedy's mode and counts, the summary's class shapes, seconds,
and the refinement's IL before and after, passes and moves."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..base import AnonymizeRequest
from ..shared.schedule import Schedule
from .greedy.select import Result

if TYPE_CHECKING:
    from .coded import Coded
    from .greedy.cost import CostModel
    from .refine.exchange import Refined


@dataclass(frozen=True)
class GreedyRun:
    """How the greedy ran: the l it formed classes of, the fast mode's window (None: exact mode), which
    greedy ran and its wave size, and the Max-l schedule (None: the variants' dynamic selection)."""

    l: int
    window: int | None
    greedy: str
    waves: int | None
    schedule: Schedule | None


def release_details(
    request: AnonymizeRequest,
    run: GreedyRun,
    prep: Coded,
    result: Result,
    summary: Mapping[str, Any],
    seconds: Mapping[str, float],
) -> dict[str, Any]:
    """The details of a BSGI release (the greedy's classes ``result``, counted in SQL as ``summary``)."""
    l, window, greedy, waves, schedule = run.l, run.window, run.greedy, run.waves, run.schedule
    cost, weights, orders, variant = prep.cost, prep.weights, prep.orders, prep.variant
    criterion = request.options["incorporate"]
    repeats = int(summary["classes_with_repeats"])
    exact_l = int(summary["exact_classes"])
    classes = int(summary["classes"])
    il = cost.ncp(result.il_scaled)
    details: dict[str, Any] = {
        "l": l,
        "mode": "exact" if window is None else "fast",
        "greedy": greedy,
        "window": window,
        "batch": waves,
        "classes": classes,
        "residual_rows": result.residual_rows,
        "classes_incorporated": result.classes_incorporated,
        "unique_distinct": repeats == 0,
        "unique_distinct_exact": repeats == 0 and exact_l == classes,
        "classes_exactly_l": exact_l,
        "classes_l_plus_1": int(summary["classes_l_plus_1"]),
        "classes_with_repeats": repeats,
        "min_distinct": int(summary["min_distinct"]),
        "incorporate": criterion,
        "first_pick": "random (seed)" if request.seed is not None else "smallest row id",
        "picks": result.picks,
        "window_fallbacks": result.window_fallbacks,
        "locality_orders": [[request.inputs.qi[i].name for i in o] for o in orders],
        "exact_costs": cost.exact,
        "il_weighted": float(il) if not isinstance(il, float) else il,
        "seconds": {k: round(v, 4) for k, v in seconds.items()},
    }
    if any(w != 1 for w in weights):
        details["weights"] = [str(w) for w in weights]
    if schedule is not None:
        details["schedule_runs"] = len(schedule.runs)
    if variant:
        details["variant"] = {
            "individual_column": request.options.get("individual_column"),
            "secondary_sa": [c.name for c in request.inputs.sa[1:]],
            "skipped_buckets": result.skipped_buckets,
            "stopped_early": result.stopped_early,
            "individual_repeats": result.individual_repeats,
            "classes_with_repeated_individuals": int(summary["classes_with_repeated_individuals"]),
        }
    return details


def refine_details(refined: Refined, model: CostModel) -> dict[str, float | int]:
    """The release details of a refinement: IL (weighted, SPEC §0.7) before and after, passes, moves (of
    which ``sideways``: exchanges that kept the IL and lowered the spread)."""
    return {
        "il_before": float(model.ncp(refined.il_before)),
        "il_after": float(model.ncp(refined.il_after)),
        "passes": refined.passes,
        "moves": refined.moves,
        "sideways": refined.sideways,
        "refine_seconds": round(refined.seconds, 4),
        "threads": refined.threads,
    }
