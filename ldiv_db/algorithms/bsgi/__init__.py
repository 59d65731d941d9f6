"""BSGI — Bucketize, Select, Group, Incorporate (Ye, Deng, Wang, Lv, Liu, Feng; SPEC §2).

Unique Distinct l-diversity by local recoding: rows are bucketized by SA value; Max-l selection takes one
row from each of the l largest buckets per class (re-sorted every iteration, ties by first appearance of
the SA value), the first row being the smallest row id of the largest bucket (``--seed``: a random one,
as the paper) and each next row the one of its bucket that minimizes IL(e ∪ t) (SPEC §0.7, ``--weights``);
residual rows are incorporated in ascending row id into a class without their SA value if one exists,
then by least IL (``--incorporate merged|increase``). The pipeline publishes each class by LCA / range
(recoding 'lca', SPEC §0.5).

Where the work happens: SQL codes the rows, numbers the buckets by first appearance and compresses the
table into cells (``sql/bsgi/``); the Max-l schedule is closed-form from the bucket sizes
(:mod:`~ldiv_db.algorithms.shared.schedule`); the greedy picks run over arrays fetched once (:mod:`.greedy.select`, numpy — the
greedy is sequential and one query per pick would cost more than the pick); SQL writes and counts the classes.

Modes. ``--exact``: the sequential greedy over whole buckets (Fig. 2, O(n²)). Fast (default): classes are
built in waves of 256 (:mod:`.greedy.waves`), every pick pricing the ``--window`` cells on each side of the
seed in each of 4 locality orders; on small inputs (Σ rows × cells per bucket ≤ 2,000,000) fast mode
runs the exact greedy, so there the two are identical. Fast mode keeps the schedule — the same classes'
SA values, residual rows and Unique Distinct guarantee — and stays within a few percent of the exact
IL (bench/README.md).

Variants (SPEC §2.4): ``--individual-column`` (no two rows of one individual in a class) and several SAs
(``--sa a,b``: bucketize by the first, a candidate must differ from the class on every SA).

Refinement (beyond the paper; ``--refine exchange``, the default; ``--refine none`` is the paper's
algorithm exactly): with a single SA and no individual column, a locality construction
(:mod:`.refine.construct`) and a split of the table form the same number of classes of l distinct values; the
lowest-IL start among them and the greedy's classes whose DM is not above the greedy's
(:func:`~.refine.starts.best_start`; the two are built on a second thread while the greedy runs) is then
improved by exchanging rows between nearby classes (:mod:`.refine.exchange`) while every class keeps its size and
never gains a repeated SA value or individual, so the class count and CAVG stay the paper's and neither the
DM nor the IL rises above it. The details report IL before/after, passes, moves. Above
:data:`~.refine.parts.PART_ROWS` rows (single SA, no individual column) the refined algorithm works in parts
(:mod:`.refine.parts`): slabs of the locality order that keep Theorem 1's class count, each grouped and refined
alone, so its IL and DM are those of each part's own greedy or better (the details list the parts).
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.catalog import Column
from ...core.inputs import check_nulls
from ...core.options import Option, per_qi
from ...errors import BadInput, HierarchyError
from ...privacy import Distinct, Entropy, Frequency, PrivacyModel, Recursive, UniqueDistinct
from ...sqlgen.render import Ident, render
from ...taxonomy import missing_values
from ...util.lazy import library
from ...verify.guarantees import OnePerGroup
from ..base import Algorithm, AnonymizeRequest, Partitioning, lca_hierarchy_ids
from ..shared.lca import labeller, lca_labels
from ..shared.schedule import max_l_schedule
from ..shared.trees import IntArray, Kind, Tree, load_trees, qi_kinds
from .coded import Coded
from .details import GreedyRun, refine_details, release_details
from .greedy.cells import ORDERS, locality_keys, locality_orders
from .greedy.cost import Attribute, CostModel
from .greedy.select import Cells, Engine, Result
from .refine import parts, starts
from .refine.exchange import REFINE, Refined
from .refine.helper import workers
from .refine.parts import Grouped
from .refine.starts import Starts, best_start

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

DEFAULT_WINDOW = 12
EXACT_BUDGET = 2_000_000  # fast mode runs the exact greedy when Σ_buckets rows × cells stays below this
# the refinement's starts are built beside the greedy (a second thread) up to this many rows — the largest
# table the refined BSGI groups whole (:data:`~.refine.parts.PART_ROWS`); after it above (the variants),
# where both sets of arrays at once would pass the 1 GB a run may hold (decision 0029)
BESIDE_MAX_ROWS = 1_000_000
# an individual's id is never a value of its own: --null-as-value does not admit a NULL there
INDIVIDUAL_NULL = "give every row its individual's id (--null-as-value does not apply to it), or filter those rows out first"
DEFAULT_BATCH = 256
SUPPORTED_MODELS = (UniqueDistinct, Distinct, Entropy, Recursive, Frequency)


WEIGHTS = Option(
    "weights",
    "pairs",
    "bsgi: IL weight per QI in QI order (1,1,2) or by name (age=2)",
    low=0,
    high=10**6,
    item="number",
)


def parse_weights(spec: Any, qi: Sequence[str]) -> list[Fraction]:
    """``--weights 1,1,2`` in QI order, or ``age=2,sex=1`` (unnamed QIs weigh 1); SPEC §0.7 w_i."""
    if spec is None or spec == "":
        return [Fraction(1)] * len(qi)
    given = per_qi(WEIGHTS.parse(spec, "api"), qi, "--weights")
    weights = [Fraction(given.get(q, 1)) for q in qi]
    if sum(weights) == 0:
        raise BadInput(
            f"weights {[str(w) for w in weights]} are not usable", "weights must be >= 0 with a positive sum"
        )
    return weights


def expected_mix_cost(attr: Attribute, codes: np.ndarray, counts: np.ndarray) -> float:
    """The expected scaled cost of one attribute for two random rows of the table: the locality order
    sorts by the attributes that are most costly to mix first."""
    p = counts / counts.sum()
    if attr.kind == "hierarchy":
        assert attr.tree is not None and attr.node_cost is not None
        mass = np.zeros(len(attr.tree.parent))
        np.add.at(mass, codes, p)
        cum = np.concatenate([[0.0], np.cumsum(mass)])
        ids = np.arange(len(mass))
        sub = cum[attr.tree.last + 1] - cum[ids]  # mass in each subtree
        sq = sub * sub
        child = np.zeros(len(mass))
        np.add.at(child, attr.tree.parent[1:], sq[1:])
        return float(((sq - child) * attr.node_cost).sum())
    if attr.kind == "numeric":
        x = codes.astype(np.float64) if attr.values is None else attr.values[codes].astype(np.float64)
        order = np.argsort(x)
        x, q = x[order], p[order]
        before = np.cumsum(q) - q
        weighted = np.cumsum(q * x) - q * x
        return float(2 * (q * (x * before - weighted)).sum() * float(attr.unit))
    return float((1 - (p * p).sum()) * float(attr.unit))


def mix_order(attrs: Sequence[Attribute], domains: pd.DataFrame) -> list[int]:
    """The QIs by expected mix cost, most costly first (ties by QI order): the locality order."""
    mix = []
    for i, a in enumerate(attrs, start=1):
        dom = domains.loc[domains["attr"] == i]
        codes = dom["code"].to_numpy(dtype=np.int64)
        mix.append(expected_mix_cost(a, codes, dom["n"].to_numpy(dtype=np.float64)))
    return sorted(range(len(attrs)), key=lambda i: (-mix[i], i))


@dataclass
class Prepared(Coded):
    """:class:`Coded` and the fetched rows (of the whole table, or of one part)."""

    cells: Cells


class Bsgi(Algorithm):
    name = "bsgi"
    generalizes_by_hierarchy = True
    default_model = "unique-distinct"
    summary = "BSGI: Max-l bucket selection + greedy least-IL grouping, Unique Distinct l-diversity (local recoding)"
    options = (
        Option(
            "exact", "flag", "bsgi: the exact sequential greedy over whole buckets (slower)", default=False
        ),
        Option(
            "window",
            "int",
            f"bsgi fast mode: candidate cells per pick on each side of the seed, in each of {ORDERS} locality orders",
            default=DEFAULT_WINDOW,
            low=1,
            high=10**6,
        ),
        Option(
            "batch",
            "int",
            "bsgi fast mode: classes formed per wave",
            default=DEFAULT_BATCH,
            low=1,
            high=10**6,
        ),
        Option(
            "incorporate",
            "choice",
            "bsgi: residual rows go to the class of least merged IL or of least IL increase",
            default="merged",
            choices=("merged", "increase"),
        ),
        WEIGHTS,
        REFINE,
        Option(
            "individual_column",
            "text",
            "bsgi: column identifying individuals; no class holds two rows of one individual",
        ),
    )

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t_start = time.perf_counter()
        model, opts = request.model, request.options
        if not isinstance(model, SUPPORTED_MODELS) or not model.ls:
            raise BadInput(
                f"BSGI forms classes of l distinct SA values; it cannot target {model.describe()}",
                "use --model unique-distinct (default), distinct, entropy, recursive or frequency",
            )
        l = max(model.ls)
        window = None if opts["exact"] else int(opts["window"])
        coded = self._prepare(request, l, window)
        schedule = None if coded.variant else max_l_schedule(coded.sizes.tolist(), l)
        # refined, above PART_ROWS rows: part by part (:mod:`.refine.parts`; the paper's greedy stays whole)
        plan = (
            parts.planned(request.db, coded, schedule) if opts["refine"] == "exchange" and schedule else None
        )
        assignment = request.db.work_table("bsgi_assignment")
        if plan is None:
            prep = self.fetch(request, coded)
            t_sql = time.perf_counter()
            with request.db.holding_little():  # no statement until the write: DuckDB's blocks go out
                grouped = self._whole(request, prep, l, window, schedule)
            cells = prep.cells
            del prep
            t_refine = time.perf_counter()
            self.new_assignment(request.db, assignment)
            self.assign(request.db, assignment, cells.rid, grouped.result.gid)
        else:
            t_sql = time.perf_counter()
            # each part's classes are written as it ends: no array of every row is held beside the
            # pipeline's tables
            grouped = parts.run_parts(self, request, coded, l, window, plan, assignment)
            cells = None
            t_refine = time.perf_counter()
        result, refined = grouped.result, grouped.refined
        summary, labels = self._write(request, coded, assignment, cells, result, l)
        t_end = time.perf_counter()
        seconds = {
            "sql_prepare": t_sql - t_start + grouped.fetch,
            "greedy": grouped.greedy_seconds,
            "refine": grouped.refine_seconds,
            "write_and_count": t_end - t_refine,
        }
        run = GreedyRun(l, window, grouped.greedy, grouped.waves, schedule)
        details = release_details(request, run, coded, result, summary, seconds)
        if refined is not None:
            details["refine"] = {**refine_details(refined, coded.cost), **grouped.start}
        if plan is not None:
            details["parts"] = grouped.parts
        delivered, shortfall = self._delivered(model, result, summary, coded.sizes.tolist())
        return Partitioning(
            assignment=assignment,
            recoding="lca",
            group_labels=labels,
            details=details,
            verify_model=delivered,
            shortfall=shortfall,
            metric_weights=coded.weights if any(w != 1 for w in coded.weights) else None,
            guarantees=(OnePerGroup(coded.individual),) if coded.individual is not None else (),
        )

    def _prepare(self, request: AnonymizeRequest, l: int, window: int | None) -> Coded:
        """Codes, buckets and domains in SQL; the cost model; the locality orders."""
        db, inputs = request.db, request.inputs
        qi_names = [c.name for c in inputs.qi]
        weights = parse_weights(request.options.get("weights"), qi_names)
        individual = self._individual(request)
        kinds = qi_kinds(request)
        hids = lca_hierarchy_ids(inputs.qi, request.hierarchy_ids)
        extra = [Ident(f"s{i}") for i in range(2, len(inputs.sa) + 1)]
        qcols = [Ident(f"q{i}") for i in range(1, len(inputs.qi) + 1)]
        codes = db.work_table("bsgi_codes")
        db.run(
            render(
                "bsgi/codes.sql",
                {"hids": hids},
                target=codes,
                source=inputs.table.ref,
                sa=[c.ident for c in inputs.sa],
                qi=[c.ident for c in inputs.qi],
                kinds=kinds,
                texts=[c.is_text for c in inputs.qi],
                individual=individual.ident if individual else None,
            )
        )
        domains = db.df(render("bsgi/domains.sql", codes=codes, qi=qcols, kinds=kinds), bulk=True)
        trees = load_trees(db, hids, kinds)
        attrs = self._attributes(request, kinds, weights, trees, domains)
        cost = CostModel(attrs)  # scales the attributes' units (exact integers where possible)
        sizes = domains.loc[domains["attr"] == 0].sort_values("code")["n"].to_numpy(dtype=np.int64)
        if len(sizes) < l:
            raise BadInput(
                f"l = {l} is infeasible: {inputs.sa[0].name} has only {len(sizes)} distinct values",
                f"the largest feasible l is {len(sizes)}",
            )
        order = mix_order(attrs, domains)
        orders = locality_orders(order, 1 if window is None else ORDERS)
        distinct = [int((domains["attr"] == i).sum()) for i in range(1, len(qcols) + 1)]
        return Coded(codes, extra, qcols, individual, weights, cost, sizes, order, orders, distinct)

    def fetch(self, request: AnonymizeRequest, coded: Coded, parts: Any = None, part: int = 0) -> Prepared:
        """The rows as cells — of the whole coded table, or of one ``part`` of ``parts``
        (``sql/bsgi/parts.sql``) — with their locality keys."""
        query = render(
            "bsgi/cells.sql",
            {"part": part},
            codes=coded.codes if parts is None else parts,
            qcols=coded.qcols,
            extra=coded.extra,
            individual=coded.individual is not None,
            parted=parts is not None,
        )
        # numpy columns, no frame: the cells are arrays (on DuckDB straight from its numpy conversion)
        cells = _cells(
            request.db.arrays(query, bulk=True), len(coded.qcols), coded.extra, coded.individual is not None
        )
        if coded.individual is not None:
            individual_bound(cells, max(request.model.ls), coded.individual.name)
        cells.key = locality_keys(cells.codes, coded.orders)
        return Prepared(**vars(coded), cells=cells)

    def _group(
        self, request: AnonymizeRequest, prep: Prepared, l: int, window: int | None, schedule: Any
    ) -> tuple[Result, str, int | None]:
        """Select, group, incorporate (the paper's greedy, fast or exact)."""
        rng = random.Random(request.seed) if request.seed is not None else None
        work = _exact_work(prep.cells)
        if window is None or work <= EXACT_BUDGET:
            greedy, engine_window, waves = "sequential, whole buckets (exact)", None, None
        elif prep.variant:
            greedy, engine_window, waves = "sequential, windowed", window * len(prep.orders), None
        else:
            greedy, engine_window, waves = "waves", window, int(request.options["batch"])
        engine = Engine(
            prep.cells,
            prep.cost,
            l,
            window=engine_window,
            criterion=request.options["incorporate"],
            rng=rng,
            progress=self._progress(request),
        )
        result = engine.run(schedule, batch=waves)
        if result.classes == 0:
            raise BadInput(
                f"BSGI formed no class of {l} rows: no {l} rows differ on every SA"
                + (" and belong to different individuals" if prep.individual else ""),
                "lower l, or drop secondary SAs / the individual column",
            )
        return result, greedy, waves

    def _whole(
        self, request: AnonymizeRequest, prep: Prepared, l: int, window: int | None, schedule: Any
    ) -> Grouped:
        """The greedy over all rows at once, then (``--refine exchange``) the exchange search."""
        build = (prep.cells, prep.cost, prep.order, ORDERS, l, schedule, request.options["incorporate"])
        refine = request.options["refine"] == "exchange"
        t0 = time.perf_counter()
        beside = None
        if refine and prep.cells.n <= BESIDE_MAX_ROWS:
            # the refinement's other starts, built while the greedy runs (:mod:`.refine.starts`)
            (result, greedy, waves), beside = starts.beside(
                functools.partial(self._group, request, prep, l, window, schedule), build, workers()
            )
        else:
            result, greedy, waves = self._group(request, prep, l, window, schedule)
        t1 = time.perf_counter()
        refined, start = None, dict[str, Any]()
        if refine:
            built = beside.result() if beside is not None else starts.build(*build, starts.Threads(workers()))
            result, refined, start = self._refine(prep, result, built, request)
            # the refiner's per-row arrays and the other starts go before the write (80 B a row)
            del built, beside
        return Grouped(result, refined, start, greedy, waves, 0.0, t1 - t0, time.perf_counter() - t1)

    def _refine(
        self, prep: Prepared, greedy: Result, beside: Starts, request: AnonymizeRequest
    ) -> tuple[Result, Refined, dict[str, Any]]:
        """``--refine exchange``: the exchange search from the best start (:func:`~.refine.starts.best_start`):
        the greedy's classes or (single SA, no individual column) the locality construction or the
        feasible split; exchanges never raise the IL, so it never exceeds the paper's. Progress: the
        rounds of each exchange pass."""
        start, chosen_info = best_start(beside.candidates(greedy), greedy, prep.cost)
        if chosen_info["start"] == "split" and beside.split_order is not None:
            # from the split's classes the exchanges also look along its tree (Refiner.adopt_order); from
            # the other starts, whose classes the tree does not follow, that order served less (Adult
            # l = 7: 67,258 against 67,217; CUP l = 3: 4,123 against 4,109)
            beside.refiner.adopt_order(beside.split_order)
        beside.refiner.progress = request.progress.update
        refined = beside.refiner.run(start.gid, beside.split_members)
        beside.split_members = None  # changed by the run
        refined.il_before = greedy.il_scaled
        start = dataclasses.replace(start, gid=refined.gid, il_scaled=refined.il_after)
        return start, refined, {**chosen_info, **beside.info}

    @staticmethod
    def new_assignment(db: Any, assignment: Any) -> None:
        """The empty assignment table (:meth:`assign` fills it)."""
        db.run(render("bsgi/assignment.sql", target=assignment))

    @staticmethod
    def assign(db: Any, assignment: Any, rid: IntArray, gid: IntArray) -> None:
        """Append rows ``rid`` with their classes ``gid`` (0-based) to the assignment table."""
        zeros = np.zeros(len(rid), dtype=bool)
        db.insert_columns(assignment, {"rid": rid, "gid": gid + 1, "deleted": zeros, "sa_suppressed": zeros})

    def _write(
        self,
        request: AnonymizeRequest,
        coded: Coded,
        assignment: Any,
        cells: Cells | None,
        result: Result,
        l: int,
    ) -> tuple[Any, Any]:
        """Count the written classes in SQL; refuse repeated individuals; the classes' LCA labels from
        the codes where every QI is a taxonomy (:func:`~ldiv_db.algorithms.shared.lca.lca_labels`;
        without ``cells``, as in parts, the pipeline labels them in SQL)."""
        db = request.db
        summary = db.records(
            render(
                "bsgi/summary.sql",
                {"l": l},
                assignment=assignment,
                codes=coded.codes,
                extra=coded.extra,
                individual=coded.individual is not None,
            )
        )[0]
        if cells is None:  # parts: single SA, no individual column
            return summary, None
        if coded.individual is not None:
            refuse_repeated_individuals(summary, cells, l, coded.individual.name)
        how = [labeller(a, c) for a, c in zip(coded.cost.attrs, request.inputs.qi, strict=True)]
        return summary, lca_labels(db, how, cells.row_codes, result.gid + 1)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _progress(request: AnonymizeRequest) -> Any:
        def report(done: int, total: int) -> None:
            request.progress.update(done, total, "classes")

        return report

    def _individual(self, request: AnonymizeRequest) -> Column | None:
        spelled = request.options.get("individual_column")
        if not spelled:
            return None
        inputs = request.inputs
        col = inputs.table.column(str(spelled))
        if any(col.name == c.name for c in inputs.sa):
            raise BadInput(
                f"the individual column {col.name!r} is also an SA",
                "name a column that identifies individuals",
            )
        check_nulls(request.db, inputs.table, [col], inputs.rows, INDIVIDUAL_NULL)
        return col

    def _attributes(
        self,
        request: AnonymizeRequest,
        kinds: list[Kind],
        weights: list[Fraction],
        trees: dict[int, Tree],
        domains: pd.DataFrame,
    ) -> list[Attribute]:
        attrs: list[Attribute] = []
        inputs = request.inputs
        for i, (col, kind, w) in enumerate(zip(inputs.qi, kinds, weights, strict=True), start=1):
            dom = domains.loc[domains["attr"] == i]
            if dom["code"].isna().any():
                self._missing(request, col)
            if kind == "hierarchy":
                attrs.append(Attribute(col.name, kind, w, tree=trees[request.hierarchy_ids[col.name]]))
            elif kind == "numeric":
                if dom["value"].isna().any():
                    raise BadInput(
                        f"QI {col.name!r} has NULL values; BSGI needs a number in every numeric QI cell",
                        "filter those rows out first",
                    )
                values = dom.sort_values("code")["value"].to_numpy(dtype=np.float64)
                integral = bool(np.all(values == np.round(values))) and float(np.abs(values).max()) < 2**52
                attrs.append(
                    Attribute(
                        col.name,
                        kind,
                        w,
                        lo=float(values[0]),
                        hi=float(values[-1]),
                        integral=integral,
                        values=values.astype(np.int64) if integral else values,
                    )
                )
            else:
                attrs.append(Attribute(col.name, kind, w))
        return attrs

    def _missing(self, request: AnonymizeRequest, col: Column) -> None:

        hid = request.hierarchy_ids[col.name]
        count, examples = missing_values(request.db, request.inputs.table, col, hid)
        shown = ", ".join(repr(v) for v in examples) or "NULL"
        raise HierarchyError(
            f"the hierarchy of {col.name!r} lacks {count or 'some'} value(s) of the data: {shown}",
            f"re-import it with a row for each: ldiv hierarchy import DB --table {request.inputs.table.name} "
            f"--column '{col.name}' FILE",
        )

    def _delivered(
        self, model: PrivacyModel, result: Result, summary: Mapping[str, Any], sizes: Sequence[int]
    ) -> tuple[PrivacyModel | None, str]:
        """The model the classes deliver where it is not the request's, and why: a class that repeats an
        SA value holds only distinct l-diversity (SPEC §2.4), not Unique Distinct nor the models Unique
        Distinct implies (the pipeline refuses the run unless distinct was asked for). ``sizes``: the
        primary SA's bucket sizes."""
        repeats = int(summary["classes_with_repeats"])
        if not repeats:
            return None, ""
        l, n1, n = max(model.ls), max(sizes, default=0), sum(sizes)
        cause = (
            "the table violates the l-Property, n_1·l > n"
            if l * n1 > n
            else "rows kept apart by --individual-column or by the other SAs had no class without their value"
        )
        return Distinct(model.ls), (
            f"BSGI had to place {result.residual_repeats} residual row(s) into classes that already hold "
            f"their SA value ({repeats} classes repeat a value: {cause})"
        )


def _largest_individual(cells: Cells) -> tuple[int, int]:
    """(rows of the individual with the most rows, all rows) from the cells."""
    assert cells.individual is not None
    rows = np.diff(np.append(cells.cell_start, cells.n))
    per_individual = np.bincount(cells.individual, weights=rows)
    return (int(per_individual.max()) if len(per_individual) else 0), int(cells.n)


def individual_bound(cells: Cells, l: int, column: str) -> None:
    """Refuse up front an l the individuals cannot allow: a class holds at most one row of an individual,
    so an individual with n_I rows needs n_I classes of at least l rows: l·n_I ≤ n (like Cor. 3's l·n_1 ≤ n)."""
    top, n = _largest_individual(cells)
    if top * l > n:
        raise BadInput(
            f"l = {l} is infeasible with --individual-column {column!r}: one individual has {top} of {n} rows, "
            f"and no class may hold two of them, so there must be {top} classes of at least {l} rows (> {n})",
            f"the largest l the individuals allow is ⌊n/n_I⌋ = ⌊{n}/{top}⌋ = {n // top}",
        )


def refuse_repeated_individuals(summary: Mapping[str, Any], cells: Cells, l: int, column: str) -> None:
    """Before anything is written: BSGI's greedy may strand rows of a large individual (SPEC §2.4 stops
    selecting when fewer than l buckets can contribute); then the guarantee cannot be kept."""
    classes = int(summary["classes_with_repeated_individuals"])
    if not classes:
        return
    top, n = _largest_individual(cells)
    raise BadInput(
        f"BSGI cannot keep 'no class holds two rows of one individual' at l = {l}: its classes would leave "
        f"{classes} class(es) holding two rows of one individual ({column!r}; the largest individual has "
        f"{top} of {n} rows, so l ≤ ⌊n/n_I⌋ = {n // top} is necessary but the greedy could not place them); "
        "nothing was written",
        "lower l, give each individual fewer rows, or drop --individual-column",
    )


def _exact_work(cells: Cells) -> int:
    """Σ over buckets of rows × cells: the candidate evaluations of the exact greedy (upper bound)."""
    rows = np.diff(np.append(cells.cell_start, cells.n))
    per_bucket_rows = np.bincount(cells.bucket, weights=rows)
    per_bucket_cells = np.bincount(cells.bucket)
    return int((per_bucket_rows * per_bucket_cells).sum())


def _cells(columns: Mapping[str, Any], d: int, extra: Sequence[Ident], individual: bool) -> Cells:
    """The fetched rows (ordered by cell, rid), numpy columns by name (:meth:`Database.arrays`), as
    :class:`Cells`."""
    cell = np.asarray(columns["cell"], dtype=np.int64)
    n = len(cell)
    starts = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]]) if n else np.zeros(0, dtype=np.int64)

    def first(name: str) -> IntArray:
        # a cell's values, from its first row (a new array: no view keeps the fetched column alive)
        return np.asarray(columns[name], dtype=np.int64)[starts]

    return Cells(
        rid=np.asarray(columns["rid"], dtype=np.int64),
        cell_start=starts.astype(np.int64),
        bucket=first("b"),
        key=np.zeros(len(starts), dtype=np.int64),
        codes=[first(f"q{i}") for i in range(1, d + 1)],
        extra_sa=[first(s.name) for s in extra],
        individual=first("ind") if individual else None,
    )
