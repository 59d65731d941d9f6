"""l+-Optimize (Liu & Wang, ICDE 2010; SPEC §5): the optimal full-subtree cut under per-value thresholds,
one of five suppression schemes and the LM, DM or CM cost, by a depth-first search of the cut
enumeration tree pruned with lower bounds.

How the work is split: SQL maps every row to its leaf node per QI and compresses the table into the
(leaf vector, SA value[, class]) → count histogram (``sql/lplus/rows.sql``, ``histogram.sql``); the
search then runs on that histogram in :mod:`.search` (numpy; :mod:`.histogram` builds its input, :mod:`.publish` takes the cut back), because it visits up to hundreds of
thousands of cuts and a round trip per cut would cost more than the whole in-memory evaluation of one. The chosen cut's decisions per histogram cell go back to SQL, which
assigns rows (``assign.sql``: partitions, the deleted rows, the "unknown" SA values), forms the
published labels from the hierarchy (``labels.sql``) and cross-checks the counts (``summary.sql``);
the pipeline then writes the release and re-verifies the l+ thresholds on the written table.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from ...core.catalog import Column
from ...core.inputs import refuse_folded_sa
from ...core.options import Option
from ...errors import BadInput
from ...privacy.l_plus import LPlus
from ..base import Algorithm, AnonymizeRequest, Partitioning, stored_hierarchies
from ..shared.memory import return_freed_memory
from .histogram import build, taxonomies
from .problem import ALLOWED, INF, METRICS, SCHEMES, Metric, Order, Problem, Result, Scheme
from .publish import assign, details
from .search import Search


class LPlusOptimize(Algorithm):
    name = "lplus"
    generalizes_by_hierarchy = True
    default_model = "lplus"
    summary = "l+-Optimize: the optimal full-subtree cut under per-value thresholds (LM/DM/CM, 5 schemes)"
    options = (
        Option("suppression", "choice", "lplus: suppression scheme", default="viorec", choices=SCHEMES),
        Option(
            "metric", "choice", "lplus: cost metric (cm needs --class-column)", default="lm", choices=METRICS
        ),
        Option(
            "value_order",
            "choice",
            "lplus: order of open values",
            default="occurrences",
            choices=("occurrences", "taxonomy"),
        ),
        Option(
            "space",
            "choice",
            "lplus: full-subtree cuts, or full-domain (one level per QI, as ARX)",
            default="full-subtree",
            choices=("full-subtree", "full-domain"),
        ),
        Option(
            "top_h",
            "int",
            "lplus: publish one of the h best cuts at random (with --seed)",
            default=1,
            low=1,
            high=10**6,
        ),
        Option(
            "time_limit",
            "number",
            "lplus: stop after S seconds with the best cut and its proven gap",
            low=0,
            low_open=True,
            high=10**7,
        ),
        Option(
            "warm_start",
            "flag",
            "lplus: search the full-domain cuts first and start the full-subtree search from that optimum",
            default=True,
        ),
    )

    def check(self, request: AnonymizeRequest) -> None:
        """A suppressed SA value is published as NULL ("unknown"): where NULL is a value of its own
        (``--null-as-value``) and the SA holds it, the two would be published alike, and the release's
        readers (its metrics, an attacker) could not tell a suppressed value from the value NULL."""
        scheme = request.options["suppression"]
        if scheme not in ("viosa", "allsa") or not request.null_as_value:
            return
        sa, nulls = request.inputs.sa, request.inputs.sa_nulls
        if any(nulls):
            raise BadInput(
                f"--suppression {scheme} publishes a suppressed SA value as NULL, and with --null-as-value "
                f"NULL is a value of {sa[0].name!r} ({nulls[0]:,} rows hold it): the two could not be told apart",
                "delete instead (--suppression viorec or allrec), or filter the NULL rows out first",
            )

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0 = time.perf_counter()
        opts = request.options
        model, metric, scheme, klass = _settings(request)
        space: str = opts["space"]
        warm = bool(opts["warm_start"]) and space == "full-subtree"
        refuse_folded_sa(request.db, request.inputs, "l+-Optimize")  # its histogram codes SA spellings
        # 1. hierarchies (every QI needs one: a cut is a set of taxonomy nodes)
        hids, hierarchies = stored_hierarchies(request, "l+-Optimize generalizes every QI along a taxonomy")
        taxes = taxonomies(hierarchies, space == "full-domain" or warm)
        # 2. rows -> leaf ids, and the compressed histogram (SQL)
        h = build(request, model, taxes, hids, metric, scheme, klass)
        t_hist = time.perf_counter()
        # 3. the search (numpy, on the histogram)
        search, result, warm_details = _search(request, h.problem, warm, t_hist)
        t_search = time.perf_counter()
        if result.cost is None or result.cut is None:
            if result.timed_out:
                raise BadInput(
                    f"no feasible cut was found within --time-limit {float(opts['time_limit']):g} s",
                    "allow more time, or use a suppression scheme",
                )
            raise BadInput(
                f"no cut satisfies {model.describe()} without suppression: the whole table already "
                "violates a threshold, and generalization cannot lower a confidence below the table's",
                "use a suppression scheme (--suppression viorec, allrec, viosa or allsa), or raise the thresholds",
            )
        # 4. the chosen cut's decisions per cell -> SQL assignment and labels; the search (its per-cell
        # arrays, saved frames and node stacks) is freed first: it would sit beside the release's write
        decisions = search.apply(result.cut)
        del search
        return_freed_memory()  # the search's freed blocks, before the write adds its own
        assignment, labels, summary = assign(request, decisions, result, h, hids)
        out = details(request, opts, result, h, hierarchies, summary)
        out["seconds_histogram"] = round(t_hist - t0, 4)
        out["seconds_search"] = round(t_search - t_hist, 4)
        if warm_details is not None:
            out["warm_start"] = warm_details
        if int(opts["top_h"]) > 1:
            out["top_h"] = int(opts["top_h"])
            out["top_costs"] = [str(Fraction(c, result.unit)) for c, _ in result.top]
        if result.timed_out:
            out["stopped_after_seconds"] = float(opts["time_limit"])
        return Partitioning(assignment=assignment, recoding="labels", labels=labels, details=out)


def _settings(request: AnonymizeRequest) -> tuple[LPlus, Metric, Scheme, Column | None]:
    """The model, metric, scheme and class column, checked against each other."""
    inputs, opts, model = request.inputs, request.options, request.model
    if not isinstance(model, LPlus):
        raise BadInput(
            f"the lplus algorithm enforces l+-diversity, not {model.describe()}",
            "use --model lplus (the default) with --l, --thresholds or --sensitivity",
        )
    if len(inputs.sa) != 1:
        raise BadInput("l+-Optimize takes one sensitive attribute", "name one column with --sa")
    metric: Metric = opts["metric"]
    scheme: Scheme = opts["suppression"]
    if scheme not in ALLOWED[metric]:
        raise BadInput(
            f"--metric {metric} cannot be combined with --suppression {scheme}",
            f"{metric.upper()} allows {', '.join(ALLOWED[metric])} (SPEC §5.4: DM and CM price "
            "deleted rows, not suppressed SA values); LM allows every scheme",
        )
    class_column = request.class_column
    if metric == "cm" and not class_column:
        raise BadInput("--metric cm needs the class attribute", "name it with --class-column")
    klass = inputs.table.column(class_column) if class_column and metric == "cm" else None
    return model, metric, scheme, klass


def _search(
    request: AnonymizeRequest, problem: Problem, warm: bool, t_hist: float
) -> tuple[Search, Result, dict[str, Any] | None]:
    """The search with progress reports, after the full-domain warm start when asked."""
    opts, progress = request.options, request.progress
    order: Order = opts["value_order"]
    top_h = int(opts["top_h"])
    time_limit = None if opts["time_limit"] is None else float(opts["time_limit"])

    def report(s: Search) -> None:
        best = s.best_cost
        glb = s.global_lower_bound()
        gap = "n/a" if best is None or glb >= INF else f"{(best - glb) / s.unit:g}"
        progress.update(
            s.visited + s.pruned,
            s.total,
            f"cuts visited {s.visited}, pruned {100 * s.pruned / s.total:.4f}%, "
            f"best {'none' if best is None else f'{best / s.unit:g}'}, gap {gap}",
        )

    incumbents = []
    warm_details = None
    if warm and top_h == 1:
        # warm start: the full-domain optimum is a full-subtree cut; the DFS prunes against it at once
        fd = Search(problem, space="full-domain", value_order=order, time_limit=time_limit)
        fd_result = fd.run()
        if fd_result.cost is not None and fd_result.cut is not None:
            levels_used = [c[0] for c in fd_result.cut]
            incumbents.append((fd_result.cost, fd.cut_of_levels(levels_used)))
            warm_details = {
                "levels": dict(zip([c.name for c in request.inputs.qi], levels_used, strict=True)),
                "cost": str(Fraction(fd_result.cost, fd_result.unit)),
                "optimal": fd_result.optimal,
                "seconds": round(fd_result.seconds, 4),
            }
        # the warm start's per-cell arrays go before the full-subtree search builds its own, which would
        # otherwise double the cell orders held at once
        del fd
        return_freed_memory()
    left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t_hist))
    search = Search(
        problem,
        space=opts["space"],
        value_order=order,
        top_h=top_h,
        seed=request.seed,
        time_limit=left,
        on_progress=report,
    )
    return search, search.run(incumbents), warm_details
