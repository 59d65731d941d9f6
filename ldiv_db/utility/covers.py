"""Label covers: what every published QI label stands for, and the per-attribute sums built on them.

A release cell holds a *label* (SPEC §0.5): a node of the column's hierarchy (looked up in
``ldiv.hierarchy_node`` for the source table and column; a node takes precedence over any other
reading, except in a suppression release, which reads no hierarchy: ``build_covers``' ``flat``),
``*`` (the whole domain), an original value (its ``CAST AS VARCHAR`` text), or on a numeric column an
inclusive interval ``lo-hi`` (a bare number reads as ``[x, x]``).

The **domain** |A| of an attribute is the hierarchy's leaf set when one is stored (ARX's convention: the
hierarchy may list values the data lacks), else the distinct source values. The **cover** of a label is
the set of domain values it stands for: the leaves under a node (read from ``ldiv.hierarchy_level``: the
leaves that carry the node's label at some level), the whole domain for ``*``, the value itself for a
leaf, the domain values inside an interval. ``#leaves(label)`` in NCP, LM, the ARX share and the KL
region is the size of that cover. A hierarchy is found by (``Table.name`` of the source, column name),
as ``ldiv_db.taxonomy`` stores it. Three work tables (``sql/metrics/domain``, ``labels``, ``cover``)
hold this, and ``attribute_summary.sql`` reduces them to one row per attribute; the attributes' facts
(numeric, intervals, integer, hierarchy: :class:`Attributes`) are a CTE of each statement that reads
them (``sql/_macros/metrics_attrs.sql``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.catalog import Column, Table
from ..db import Database
from ..errors import BadInput
from ..sqlgen.render import Ident, TableRef, render


@dataclass(frozen=True)
class Attributes:
    """The QI attributes as the metrics' statements read them (``sql/_macros/metrics_attrs.sql``): the
    source table's name and the QI columns' names (which hierarchy is stored for each), and per QI
    whether it is numeric, whether its range labels are intervals, whether its values are integers."""

    table_name: str
    qi_names: tuple[str, ...]
    numeric: tuple[bool, ...]
    intervals: tuple[bool, ...]
    integer: tuple[bool, ...]

    @classmethod
    def of(cls, source: Table, qi: Sequence[Column], intervals: Sequence[bool] | None = None) -> Attributes:
        as_intervals = [bool(v) for v in intervals] if intervals is not None else [False] * len(qi)
        if len(as_intervals) != len(qi):
            raise BadInput(
                f"{len(as_intervals)} interval flags for {len(qi)} QI attributes", "give one flag per QI"
            )
        return cls(
            source.name,
            tuple(c.name for c in qi),
            tuple(c.is_numeric for c in qi),
            tuple(as_intervals),
            tuple(c.is_integer for c in qi),
        )

    def params(self) -> dict[str, Any]:
        return {"table_name": self.table_name, "qi_names": list(self.qi_names)}

    def context(self) -> dict[str, Any]:
        return {
            "numeric": list(self.numeric),
            "intervals": list(self.intervals),
            "integer": list(self.integer),
        }


@dataclass(frozen=True)
class CoverTables:
    """The work tables of one metrics computation, and the attributes they are of."""

    domain: TableRef
    labels: TableRef
    cover: TableRef
    attrs: Attributes

    def all(self) -> tuple[TableRef, ...]:
        return (self.domain, self.labels, self.cover)


@dataclass(frozen=True)
class AttributeSummary:
    """Per-attribute sums over the published cells (``sql/metrics/attribute_summary.sql``).

    ``ncp_cat`` = Σ rows·#leaves over non-leaf labels; ``ncp_span`` = Σ rows·(clipped hi − lo), with
    ``*`` counting the whole source range; ``lm_num`` = Σ rows·(#leaves − 1); ``cover_sum`` = Σ rows·#leaves.
    """

    attr: int
    is_numeric: bool
    domain_size: int
    min_t: float | None
    max_t: float | None
    cells: int
    ncp_cat: int
    ncp_span: float
    lm_num: int
    cover_sum: int
    stars: int
    bad_rows: int
    bad_label: str | None


def build_covers(
    db: Database,
    source: Table,
    release: Table,
    qi: Sequence[Column],
    release_qi: Sequence[Ident],
    intervals: Sequence[bool] | None = None,
    *,
    read: TableRef | None = None,
    counted: bool = False,
    domain_rows: Mapping[str, Any] | None = None,
    flat: bool = False,
) -> CoverTables:
    """Create the domain/labels/cover work tables for ``release`` against ``source``.

    ``intervals[i]``: QI i is numeric and its range labels ``lo-hi`` are intervals (the algorithm
    published ranges), read as such even where a hierarchy node has the same text — ARX-style age
    hierarchies name the node holding 41..45 ``40-44``. Default: a hierarchy node takes precedence.
    ``read``: the table the labels are read from instead of ``release`` (the release aggregate, whose
    rows stand for ``n`` rows each when ``counted``). ``domain_rows``: the domain table's rows as a second
    reader built them (:mod:`.source_side`), adopted instead of building the domain here. ``flat``: the
    release publishes each cell as its value or ``*`` and reads no hierarchy (a suppression release,
    :data:`ldiv_db.core.recorded.SUPPRESSION_ALGORITHMS`): no label is read as a hierarchy node, so ``*``
    is the whole domain even where a stored hierarchy has a node ``*`` (a source value ``*``)."""
    attrs = Attributes.of(source, qi, intervals)
    tables = CoverTables(
        db.work_table("metrics_domain"),
        db.work_table("metrics_labels"),
        db.work_table("metrics_cover"),
        attrs,
    )
    build_domain(db, tables.domain, source, qi, intervals, rows=domain_rows)
    db.run(
        render(
            "metrics/labels.sql",
            {**attrs.params(), "flat": flat},
            target=tables.labels,
            domain=tables.domain,
            release=read or release.ref,
            rqi=list(release_qi),
            counted=counted,
            **attrs.context(),
        )
    )
    db.run(
        render(
            "metrics/cover.sql",
            target=tables.cover,
            labels=tables.labels,
            domain=tables.domain,
            n_attrs=len(qi),
        )
    )
    return tables


def build_domain(
    db: Database,
    domain: TableRef,
    source: Table,
    qi: Sequence[Column],
    intervals: Sequence[bool] | None = None,
    *,
    rows: Mapping[str, Any] | None = None,
) -> None:
    """Create the domain work table (``sql/metrics/domain.sql``): it reads only the source and the stored
    hierarchies, so a second connection builds the same one. ``rows``: the domain's rows as such a
    connection built them; the domain table is created from them (``domain_table.sql``) instead of from
    the source."""
    attrs = Attributes.of(source, qi, intervals)
    if rows is not None:
        db.run(render("metrics/domain_table.sql", target=domain))
        db.insert_columns(domain, rows)
        return
    db.run(
        render(
            "metrics/domain.sql",
            attrs.params(),
            target=domain,
            source=source.ref,
            qi=[c.ident for c in qi],
            **attrs.context(),
        )
    )


def attribute_summaries(
    db: Database, tables: CoverTables, source: Table, release: Table, qi: Sequence[Column]
) -> list[AttributeSummary]:
    """One summary per QI attribute, in QI order; refuses labels that stand for no domain value."""
    out = db.fetch(
        render(
            "metrics/attribute_summary.sql",
            tables.attrs.params(),
            domain=tables.domain,
            labels=tables.labels,
            cover=tables.cover,
            **tables.attrs.context(),
        ),
        AttributeSummary,
    )
    for s in out:
        if s.bad_rows:
            col = qi[s.attr - 1]
            interval = ", or an interval 'lo-hi' containing a value" if s.is_numeric else ""
            raise BadInput(
                f"release {release.name}, column {col.name!r}: {s.bad_rows} cell(s) hold a label that stands "
                f"for no value of {source.name}.{col.name}, e.g. {s.bad_label!r}",
                f"a QI label must be a node of the column's stored hierarchy, '*', an original "
                f"value{interval}; check that the release's hierarchy is stored for {source.name}.{col.name}",
            )
    return out


def drop_covers(db: Database, tables: CoverTables) -> None:
    """Drop the work tables unless the database keeps work tables (``--keep-work``)."""
    if db.keep_work:
        return
    for ref in tables.all():
        db.run(render("catalog/drop_work_table.sql", target=ref))
