"""Partition statistics in SQL.

A :class:`SqlEvaluator` materializes the compressed partition of a table — per group (equal key tuple:
the QI values, or a given group column) and SA, the count of every SA value — and answers every
statistic from it with the templates in ``sql/partition``, ``sql/privacy`` and ``sql/bounds``. Python
only reads back small results (one row per SA, or the handful of worst groups).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

from ..db import Database
from ..errors import InternalError
from ..sqlgen.render import Ident, Query, TableRef, render
from .stats import Confidence, MinRm, PartitionSummary, Pillar, RecursiveBound, Verdict

# the params a verdict read inline may bind in partition/shapes.sql (its header's, but worst)
INLINE_PARAMS = ("ls", "c_num", "c_den", "min_values")
# the names, inside one statement, of what it computes rather than reads from a table (its CTEs)
STATS_CTE, COUNTS_CTE, VERDICT_CTE = TableRef("stats"), TableRef("counts"), TableRef("verdict")


class VerdictLike(Protocol):
    """A verdict statement to read inline (:class:`ldiv_db.privacy.base.VerdictSql`)."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...

    @property
    def context(self) -> Mapping[str, Any]: ...


class ModelLike(Protocol):
    name: str

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None: ...

    def verdict_sql(self, ev: SqlEvaluator) -> VerdictLike | None: ...


class SqlEvaluator:
    """The compressed partition of ``source`` grouped by ``keys``, for the SAs ``sa``."""

    def __init__(
        self,
        db: Database,
        source: TableRef,
        keys: Sequence[Ident],
        sa: Sequence[Ident],
        *,
        null_as_value: bool = False,
        prefix: str = "part",
        part: tuple[int, int] = (0, 1),
        stats_only: bool = False,
        rows: int | None = None,
    ) -> None:
        self.db = db
        self.source = source
        self.keys = list(keys)
        self.sa = list(sa)
        self.null_as_value = null_as_value
        self._hist = db.work_table(f"{prefix}_hist")
        self.stats = db.work_table(f"{prefix}_stats")
        self.prefix = prefix
        self.part = part  # (index, count): only the groups whose hashed id is index modulo count
        self.exact_ids = False
        self.raw_id: Ident | None = None  # exact ids that are this integer column's values
        self._built = False
        self._counts: set[int] = set()
        # stats_only: the caller needs the group statistics (and the recursive models' counts) only; where
        # the engine builds them faster straight from the source (Database.stats_from_source: always, or
        # up to a number of the source's ``rows``), no histogram is stored unless a model asks for it
        # (:attr:`hist`)
        fast = db.stats_from_source
        sized = fast is not False and rows is not None and rows <= fast
        self._from_source = stats_only and (fast is True or sized)
        self._hist_built = False
        # the statistics were computed from the histogram's rows without storing it (a subclass's
        # choice): it is stored on first use, as from the source
        self._hist_later = False
        # the statistics per SA and the class sizes, from the shapes last read (partition/shapes.sql)
        self._summaries: list[PartitionSummary] | None = None
        self._sizes: list[tuple[int, int]] | None = None
        self._judging = False  # judge reads the shapes with the verdict: build leaves them to it

    # ------------------------------------------------------------------ building
    def build(self) -> SqlEvaluator:
        """Materialize the histogram and the group statistics (or, from the source, the statistics alone,
        whose shapes count the collisions). Group ids are hashes of the key tuple; if two tuples share an
        id, the histogram and statistics are rebuilt with exact ids."""
        if not self._built:
            if self._from_source:  # the collision count comes with the shapes: read now, or by judge
                ctx = self._rows_ctx(self._stored_name())
                self.db.run(render("partition/source_stats.sql", self._part_params(), **ctx))
                while (
                    not self._judging
                    and self._summaries is None
                    and self._shapes_read(self.db.rows(self._shapes_query(None, 0)))
                ):
                    pass
            else:
                self._histogram()
                self.db.run(render("partition/group_stats.sql", target=self._stored_name(), hist=self._hist))
                if self.db.scalar(render("partition/gid_check.sql", stats=self.stats)):
                    self._exact()
            self._built = True
        return self

    def _exact(self) -> None:
        """Rebuild the histogram and the statistics with exact ids (two key tuples shared a hashed id);
        what was derived from the hashed ones is made again when asked for."""
        self.exact_ids, self._from_source, self._summaries, self._sizes = True, False, None, None
        self._counts.clear()
        self._histogram()
        self.db.run(render("partition/group_stats.sql", target=self.stats, hist=self._hist))
        self._built = True

    def _inline(self) -> bool:
        """Whether the statistics are computed inside the statements that read them and never stored
        (``Database.inline_statistics``): from the source, until something needs them stored (:meth:`build`)."""
        return self._from_source and not self._built and self.db.inline_statistics

    @property
    def hist(self) -> TableRef:
        """The histogram table; where :meth:`build` took the statistics straight from the source, the
        histogram is stored on first use (a model that reads it: the (l,α) and l+ models)."""
        if self._from_source:
            self.build()
            if self._from_source and not self._hist_built:
                self._histogram()
        elif self._hist_later and not self._hist_built:
            self._histogram()
        return self._hist

    @hist.setter
    def hist(self, ref: TableRef) -> None:
        self._hist = ref

    def counts_for(self, min_values: int) -> tuple[TableRef, bool]:
        """For one statement over the counts of the groups with at least ``min_values`` values: the
        statistics themselves where they keep each group's counts (unordered: False), else
        :meth:`counts_table` (descending: True) — a table fewer where one statement reads them."""
        if self._from_source:
            return self.stats, False
        return self.counts_table(min_values), True

    def counts_table(self, min_values: int) -> TableRef:
        """Descending SA counts of the groups with at least ``min_values`` values (built on demand)."""
        self.build()
        target = self.work(f"counts_{min_values}")
        if min_values not in self._counts:
            if self._from_source:  # the statistics keep each group's counts
                q = render(
                    "partition/stats_counts.sql", {"min_values": min_values}, target=target, stats=self.stats
                )
            else:
                q = render(
                    "partition/group_counts.sql",
                    {"min_values": min_values},
                    target=target,
                    hist=self.hist,
                    stats=self.stats,
                )
            self.db.run(q)
            self._counts.add(min_values)
        return target

    def _part_params(self) -> dict[str, int]:
        index, count = self.part
        return {"parts": count, "part": index}

    def _rows_ctx(self, target: TableRef) -> dict[str, Any]:
        """The context of the histogram's rows (_macros/histogram_rows.sql) for a statement creating target."""
        return {
            "partitioned": self.part[1] > 1,
            "target": target,
            "source": self.source,
            "keys": self.keys,
            "sa": self.sa,
            "null_as_value": self.null_as_value,
        }

    def _histogram(self) -> None:
        ctx = {**self._rows_ctx(self._hist), "exact_ids": self.exact_ids}
        self.db.run(render("partition/histogram.sql", self._part_params(), **ctx))
        self._hist_built = True

    def work(self, name: str) -> TableRef:
        return self.db.work_table(f"{self.prefix}_{name}")

    # ------------------------------------------------------------------ statistics
    def summary(self) -> list[PartitionSummary]:
        """Per SA, the table-level statistics (from the shapes :meth:`build` or :meth:`judge` read, or read
        now: with the statistics computed inside the statement where they are not stored)."""
        while self._summaries is None:
            if not self._inline():
                self.build()
            if self._summaries is None:
                self._shapes_read(self.db.rows(self._shapes_query(None, 0)))
        return self._summaries

    def class_sizes(self) -> list[tuple[int, int]]:
        """The partition's (size, groups) histogram: its classes' sizes where its keys are the class keys
        (read with the shapes: every group has a row for the first SA)."""
        self.summary()
        return self._sizes or []

    def _shapes_query(self, verdict: TableRef | None, worst: int, inline: VerdictLike | None = None) -> Query:
        """partition/shapes.sql over the stored statistics, or partition/source_shapes.sql computing them
        (:meth:`_inline`); with ``inline``, the model's verdict read inside it as ``verdict``."""
        name, params = "partition/shapes.sql", {"worst": worst, **dict.fromkeys(INLINE_PARAMS)}
        ctx: dict[str, Any] = {"stats": self.stats}
        if self._inline():
            name, ctx = "partition/source_shapes.sql", {**self._rows_ctx(STATS_CTE), "stats": STATS_CTE}
            params.update(self._part_params())
        if inline is not None:
            ctx.update(inline.context, verdict_template=inline.template, stats=ctx["stats"])
            params.update(inline.params)
        return render(name, params, **{**ctx, "target": None}, verdict=verdict)

    def _shapes_read(self, rows: Sequence[tuple[Any, ...]]) -> bool:
        """Keep the statistics of partition/shapes.sql's shape rows; True when they show a collision of
        hashed ids, which rebuilds the statistics with exact ids (everything read from them is read again)."""
        shapes = [r for r in rows if r[0] == 0]
        if not self.exact_ids and any(int(r[7]) for r in shapes):
            self._exact()
            return True
        self._summaries = shape_summaries(shapes)
        self._sizes = [(int(r[2]), int(r[4])) for r in shapes if r[1] == 1]
        return False

    def recursive_profile(self, max_ls: Sequence[int]) -> dict[int, list[RecursiveBound]]:
        """Per SA s: for l = 2..max_ls[s-1] (at most that SA's distinct l), the infimum c above which
        recursive (c,l) holds in every group."""
        out: dict[int, list[RecursiveBound]] = {}
        if max(max_ls, default=0) < 2:
            return out
        params = {"max_l": max(max_ls), "max_ls": list(max_ls)}
        if self._inline():  # the counts from the source inside the statement
            ctx = {**self._rows_ctx(COUNTS_CTE), "counts": COUNTS_CTE}
            q = render("partition/source_profile.sql", {**params, **self._part_params()}, **ctx)
        else:
            q = render("partition/recursive_profile.sql", params, counts=self.counts_table(2))
        for s, l_value, cands in self.db.rows(q):
            exact = max(Fraction(int(a), int(b)) for a, b in cands)
            out.setdefault(int(s), []).append(RecursiveBound(int(l_value), exact))
        return out

    def value_counts(self) -> dict[int, list[tuple[str | None, int]]]:
        """Per SA: every value (None = NULL with null_as_value) with its count in the whole table."""
        out: dict[int, list[tuple[str | None, int]]] = {}
        for s, v, n in self.db.rows(render("partition/value_counts.sql", hist=self.hist)):
            out.setdefault(int(s), []).append((None if v is None else str(v), int(n)))
        return out

    def pillars(self) -> list[Pillar]:
        return self.db.fetch(render("partition/pillars.sql", hist=self.hist, stats=self.stats), Pillar)

    def confidences(self) -> list[Confidence]:
        return self.db.fetch(render("partition/confidence.sql", hist=self.hist, stats=self.stats), Confidence)

    def min_rm(self, thresholds: TableRef, default: Fraction) -> list[MinRm]:
        q = render(
            "bounds/min_rm.sql",
            {"p_default": default.numerator, "q_default": default.denominator},
            hist=self.hist,
            stats=self.stats,
            thresholds=thresholds,
        )
        return self.db.fetch(q, MinRm)

    # ------------------------------------------------------------------ privacy
    def verdict_table(self, model: ModelLike) -> TableRef:
        """The work table ``model.apply`` writes its per-group verdict into."""
        return self.work(f"verdict_{model.name}".replace("-", "_"))

    def judge(self, model: ModelLike, worst: int = 5) -> Verdict:
        """The model's verdict, read in one statement with the partition's shapes (:meth:`summary`,
        :meth:`class_sizes`): how many groups and rows violate it and its ``worst`` violating groups as
        (severity, size, gid), worst first. A model whose verdict nothing else reads (``verdict_sql``)
        is computed inside that statement; any other writes :meth:`verdict_table` first (``apply``). From
        the source, the statistics' collision check is that statement's: a collision rebuilds them with
        exact ids, and the model is applied again. Where the statistics are not stored (:meth:`_inline`),
        an inline verdict is read in the statement that computes them (partition/source_shapes.sql)."""
        if self._inline():
            inline = self._verdict_inline(model)
            if inline is not None:
                return self._verdict_of(
                    model, worst, self.db.rows(self._shapes_query(VERDICT_CTE, worst, inline))
                )
        self._judging = True
        try:
            self.build()
        finally:
            self._judging = False
        inline = model.verdict_sql(self)
        if inline is None:
            target = self.verdict_table(model)
            model.apply(self, target)
            rows = self.db.rows(self._shapes_query(target, worst))
        else:  # a name for the statement's own verdict rows (a CTE), not a table
            rows = self.db.rows(self._shapes_query(VERDICT_CTE, worst, inline))
        return self._verdict_of(model, worst, rows)

    def _verdict_inline(self, model: ModelLike) -> VerdictLike | None:
        """The model's inline verdict over the statistics a statement computes as ``stats`` (its CTE)."""
        stored, self.stats = self.stats, STATS_CTE
        try:
            return model.verdict_sql(self)
        finally:
            self.stats = stored

    def _stored_name(self) -> TableRef:
        """The statistics' table, refused while ``stats`` names a statement's CTE (:meth:`_verdict_inline`):
        a verdict read inline that asked for a stored table would create one under the CTE's name."""
        if self.stats == STATS_CTE:
            raise InternalError("a verdict read inline reads the statistics only; it cannot store tables")
        return self.stats

    def _verdict_of(self, model: ModelLike, worst: int, rows: Sequence[tuple[Any, ...]]) -> Verdict:
        """The verdict in the rows of the shapes' statement; a collision of hashed ids judges again."""
        if self._shapes_read(rows):
            return self.judge(model, worst)
        vg, vr = next((int(r[4]), int(r[2])) for r in rows if r[0] == 1)
        ranked = [
            (float(r[9]), int(r[2]), int(r[8])) for r in sorted((r for r in rows if r[0] == 2), key=_place)
        ]
        return Verdict(vg == 0, vg, vr, tuple(gid for *_, gid in ranked), tuple(ranked))

    def group_keys(self, gids: Sequence[int]) -> list[dict[str, Any]]:
        if not gids:
            return []
        q = render(
            "partition/group_keys.sql",
            {"gids": list(gids)},
            source=self.source,
            keys=self.keys,
            exact_ids=self.exact_ids,
            raw_id=self.raw_id,
        )
        recs = {int(r["gid"]): r for r in self.db.records(q)}
        out = []
        for gid in gids:
            r = recs[gid]
            out.append(
                {
                    "gid": gid,
                    "size": int(r["size"]),
                    "key": {k.name: r[f"k{i}"] for i, k in enumerate(self.keys, 1)},
                }
            )
        return out


def summary_of(rec: Mapping[str, Any]) -> PartitionSummary:
    """One SA's partition statistics from a row of ``partition/summary.sql`` (or a query returning its
    columns: s, groups, rows, k, distinct_l, min_entropy, freq_candidates)."""
    cands = [Fraction(int(a), int(b)) for a, b in rec["freq_candidates"] or [] if int(b) > 0]
    return PartitionSummary(
        s=int(rec["s"]),
        groups=int(rec["groups"]),
        rows=int(rec["rows"]),
        k=int(rec["k"]),
        distinct_l=int(rec["distinct_l"]),
        min_entropy=None if rec["min_entropy"] is None else float(rec["min_entropy"]),
        frequency_l=min(cands) if cands else None,
    )


def _place(row: Sequence[Any]) -> int:
    return int(row[10])


def shape_summaries(shapes: Sequence[Sequence[Any]]) -> list[PartitionSummary]:
    """Per SA, the statistics of partition/shapes.sql's shape rows (part, s, size, h, groups, n_values,
    entropy, ...): the sums and minima over its shapes; the frequency l the least size / h exactly."""
    by_s: dict[int, list[Sequence[Any]]] = {}
    for r in shapes:
        by_s.setdefault(int(r[1]), []).append(r)
    out = []
    for s, rows in sorted(by_s.items()):
        entropies = [float(r[6]) for r in rows if r[6] is not None]
        out.append(
            PartitionSummary(
                s=s,
                groups=sum(int(r[4]) for r in rows),
                rows=sum(int(r[4]) * int(r[2]) for r in rows),
                k=min(int(r[2]) for r in rows),
                distinct_l=min(int(r[5]) for r in rows),
                min_entropy=min(entropies) if entropies else None,
                frequency_l=_least_ratio([(int(r[2]), int(r[3])) for r in rows]),
            )
        )
    return out


def _least_ratio(pairs: Sequence[tuple[int, int]]) -> Fraction | None:
    """The least a / b over the pairs with b > 0, exactly (compared crosswise: one Fraction, not one per
    pair)."""
    best: tuple[int, int] | None = None
    for a, b in pairs:
        if b > 0 and (best is None or a * best[1] < best[0] * b):
            best = (a, b)
    return None if best is None else Fraction(*best)
