"""l+-Optimize (Liu & Wang, ICDE 2010; SPEC §5): the optimal full-subtree cut under per-value thresholds,
one of five suppression schemes and the LM, DM or CM cost, by a depth-first search of the cut
enumeration tree pruned with lower bounds.

How the work is split: SQL maps every row to its leaf node per QI and compresses the table into the
(leaf vector, SA value[, class]) → count histogram (``sql/lplus/rows.sql``, ``histogram.sql``); the
search then runs on that histogram in :mod:`.lplus_engine` (numpy), because it visits up to hundreds of
thousands of cuts and a round trip per cut (~0.3 ms plus the query) would cost more than the whole
in-memory evaluation of one. The chosen cut's decisions per histogram cell go back to SQL, which
assigns rows (``assign.sql``: partitions, the deleted rows, the "unknown" SA values), forms the
published labels from the hierarchy (``labels.sql``) and cross-checks the counts (``summary.sql``);
the pipeline then writes the release and re-verifies the l+ thresholds on the written table.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ... import taxonomy
from ...errors import BadInput, InternalError
from ...options import Option
from ...privacy.l_plus import LPlus
from ...render import render
from ..base import Algorithm, AnonymizeRequest, Partitioning, stored_hierarchies
from .engine import Search
from .problem import ALLOWED, INF, METRICS, SCHEMES, Problem, Taxonomy


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

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0 = time.perf_counter()
        db, inputs, opts = request.db, request.inputs, request.options
        model = request.model
        if not isinstance(model, LPlus):
            raise BadInput(
                f"the lplus algorithm enforces l+-diversity, not {model.describe()}",
                "use --model lplus (the default) with --l, --thresholds or --sensitivity",
            )
        if len(inputs.sa) != 1:
            raise BadInput("l+-Optimize takes one sensitive attribute", "name one column with --sa")
        metric: str = opts["metric"]
        scheme: str = opts["suppression"]
        if scheme not in ALLOWED[metric]:  # type: ignore[index]
            raise BadInput(
                f"--metric {metric} cannot be combined with --suppression {scheme}",
                f"{metric.upper()} allows {', '.join(ALLOWED[metric])} (SPEC §5.4: DM and CM price "  # type: ignore[index]
                "deleted rows, not suppressed SA values); LM allows every scheme",
            )
        space: str = opts["space"]
        order: str = opts["value_order"]
        top_h = int(opts["top_h"])
        time_limit = None if opts["time_limit"] is None else float(opts["time_limit"])
        warm = bool(opts["warm_start"]) and space == "full-subtree"
        class_column = request.class_column
        if metric == "cm" and not class_column:
            raise BadInput("--metric cm needs the class attribute", "name it with --class-column")
        klass = inputs.table.column(class_column) if class_column and metric == "cm" else None

        # 1. hierarchies (every QI needs one: a cut is a set of taxonomy nodes)
        taxes: list[Taxonomy] = []
        hids, hierarchies = stored_hierarchies(request, "l+-Optimize generalizes every QI along a taxonomy")
        for h in hierarchies:
            levels: tuple[tuple[int, ...], ...] = ()
            if space == "full-domain" or warm:
                levels = tuple(
                    tuple(
                        h.node_id(h.level_label(lab, k)) if h.is_leaf(lab) else i
                        for i, lab in enumerate(h.labels)
                    )
                    for k in range(h.levels)
                )
            taxes.append(Taxonomy(h.arrays, levels))

        # 2. rows -> leaf ids, and the compressed histogram (SQL)
        d = len(inputs.qi)
        rows = db.work_table("lplus_rows")
        db.run(
            render(
                "lplus/rows.sql",
                {"hids": hids},
                target=rows,
                source=inputs.table.ref,
                qi=[c.ident for c in inputs.qi],
                sa=inputs.sa[0].ident,
                klass=klass.ident if klass is not None else None,
            )
        )
        hist = db.df(render("lplus/histogram.sql", rows=rows, d=d))
        for i, col in enumerate(inputs.qi, 1):
            if hist[f"l{i}"].isna().any():
                count, sample = taxonomy.missing_values(db, inputs.table, col, hids[i - 1])
                raise BadInput(
                    f"{count} value(s) of {col.name!r} are not leaves of its hierarchy: {', '.join(sample)}",
                    "re-import the hierarchy with a row for every data value",
                )
        sa_values = list(dict.fromkeys(hist["s"].tolist()))
        counts = hist.groupby("s", sort=False, dropna=False)["n"].sum()
        theta = model.resolve({1: [(v, int(counts[v])) for v in sa_values]})
        thetas = [theta[(1, v)] for v in sa_values]
        sa_code = {v: i for i, v in enumerate(sa_values)}
        classes = sorted({str(k) for k in hist["k"].tolist()}) if klass is not None else []
        class_codes = (
            np.asarray(hist["k"].astype(str).map({c: i for i, c in enumerate(classes)}), dtype=np.int64)
            if klass is not None
            else None
        )
        problem = Problem(
            taxonomies=taxes,
            leaf=np.stack([hist[f"l{i}"].to_numpy(dtype=np.int64) for i in range(1, d + 1)]).reshape(d, -1),
            sa=hist["s"].map(sa_code).to_numpy(dtype=np.int64),
            count=hist["n"].to_numpy(dtype=np.int64),
            theta=[(th.numerator, th.denominator) for th in thetas],
            metric=metric,  # type: ignore[arg-type]
            scheme=scheme,
            klass=class_codes,
            total_rows=inputs.rows,
        )
        t_hist = time.perf_counter()

        # 3. the search (numpy, on the histogram)
        progress = request.progress

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
            fd = Search(problem, space="full-domain", value_order=order, time_limit=time_limit)  # type: ignore[arg-type]
            fd_result = fd.run()
            if fd_result.cost is not None and fd_result.cut is not None:
                levels_used = [c[0] for c in fd_result.cut]
                incumbents.append((fd_result.cost, fd.cut_of_levels(levels_used)))
                warm_details = {
                    "levels": dict(zip([c.name for c in inputs.qi], levels_used, strict=True)),
                    "cost": str(Fraction(fd_result.cost, fd_result.unit)),
                    "optimal": fd_result.optimal,
                    "seconds": round(fd_result.seconds, 4),
                }
        left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t_hist))
        search = Search(
            problem,
            space=space,  # type: ignore[arg-type]
            value_order=order,  # type: ignore[arg-type]
            top_h=top_h,
            seed=request.seed,
            time_limit=left,
            on_progress=report,
        )
        result = search.run(incumbents)
        t_search = time.perf_counter()
        if result.cost is None or result.cut is None:
            if result.timed_out:
                raise BadInput(
                    f"no feasible cut was found within --time-limit {time_limit:g} s",
                    "allow more time, or use a suppression scheme",
                )
            raise BadInput(
                f"no cut satisfies {model.describe()} without suppression: the whole table already "
                "violates a threshold, and generalization cannot lower a confidence below the table's",
                "use a suppression scheme (--suppression viorec, allrec, viosa or allsa), or raise the thresholds",
            )

        # 4. the chosen cut's decisions per cell -> SQL assignment and labels
        g, gid, dele, supp, cost = search.apply(result.cut)
        if cost != result.cost:
            raise InternalError(f"l+-Optimize: the chosen cut re-evaluates to {cost}, not {result.cost}")
        frame = pd.DataFrame({f"l{i}": hist[f"l{i}"].astype("int64") for i in range(1, d + 1)})
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
        summary = db.records(render("lplus/summary.sql", cells=cells, rows=rows, d=d))[0]
        if int(summary["deleted"]) != int(dele.sum()) or int(summary["rows"]) != inputs.rows:
            raise InternalError("l+-Optimize: the histogram decisions do not reconcile with the rows")
        assignment = db.work_table("lplus_assignment")
        db.run(render("lplus/assign.sql", target=assignment, rows=rows, cells=cells, d=d))
        labels = db.work_table("lplus_labels")
        db.run(render("lplus/labels.sql", {"hids": hids}, target=labels, rows=rows, cells=cells, d=d))

        unit = result.unit
        cut_labels = {
            col.name: [h.labels[u] for u in nodes] if space == "full-subtree" else nodes[0]
            for col, h, nodes in zip(inputs.qi, hierarchies, result.cut, strict=True)
        }
        exact = Fraction(result.cost, unit)
        lower = None if result.lower_bound is None else Fraction(result.lower_bound, unit)
        best = Fraction(result.top[0][0], unit) if result.top else exact
        details: dict[str, Any] = {
            "cut" if space == "full-subtree" else "levels": cut_labels,
            "metric": metric,
            "suppression": scheme,
            "space": space,
            "value_order": order,
            "cost": float(exact),
            "cost_exact": str(exact),
            "optimal": result.optimal,
            "lower_bound": None if lower is None else str(lower),
            "gap": None if lower is None else float(best - lower),
            "cuts_total": result.total_cuts,
            "cuts_visited": result.visited,
            "pruned_share": result.pruned_share,
            "thresholds": {str(v): str(th) for v, th in zip(sa_values, thetas, strict=True)},
            "partitions": int(summary["published_partitions"]),
            "deleted_rows": int(summary["deleted"]),
            "sa_suppressed_rows": int(summary["sa_suppressed"]),
            "histogram_cells": len(hist),
            "seconds_histogram": round(t_hist - t0, 4),
            "seconds_search": round(t_search - t_hist, 4),
        }
        if warm_details is not None:
            details["warm_start"] = warm_details
        if top_h > 1:
            details["top_h"] = top_h
            details["top_costs"] = [str(Fraction(c, unit)) for c, _ in result.top]
        if result.timed_out:
            details["stopped_after_seconds"] = time_limit
        return Partitioning(assignment=assignment, recoding="labels", labels=labels, details=details)
