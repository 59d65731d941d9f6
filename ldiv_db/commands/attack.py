"""The similarity attack on a published table (Sun, Li, Wang, FGCS 2010 §1; SPEC §3.2, Table 5).

l-diversity counts distinct SA values, but an attacker who knows the sensitivity categories learns a
category when every SA value of a group falls into it (Table 5's {HIV, HIV, Cancer, Cancer} reveals "top
secret"). :func:`similarity` reports the rows and groups so exposed, and the largest confidence, in any
group, of one SA value and of one category. Groups are the rows with equal published QI labels (what an
attacker sees), or the values of a group column."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.catalog import resolve_table
from ..core.classes import partition_columns, published_group_column
from ..core.inputs import NO_NULL_OPTION, resolve_inputs
from ..db import Database
from ..errors import BadInput
from ..privacy.base import sql_text
from ..sqlgen.render import render
from ..taxonomy.categories import read_categories
from ..util.lazy import library

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")


@dataclass(frozen=True)
class SimilarityResult:
    table: str
    groups: int
    rows: int
    single_category_groups: int
    single_category_rows: int
    value_confidence: Fraction  # the largest X(v)/|X| over groups X and SA values v
    value: str | None
    value_group_size: int
    category_confidence: Fraction  # the largest (rows of X in category c)/|X|
    category: int | None
    category_group_size: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "groups": self.groups,
            "rows": self.rows,
            "single_category_groups": self.single_category_groups,
            "single_category_rows": self.single_category_rows,
            "single_category_share": self.single_category_rows / self.rows if self.rows else 0.0,
            "max_value_confidence": str(self.value_confidence),
            "max_value_confidence_float": float(self.value_confidence),
            "max_value": self.value,
            "max_category_confidence": str(self.category_confidence),
            "max_category_confidence_float": float(self.category_confidence),
            "max_category": self.category,
        }

    def render_text(self) -> str:
        share = 100 * self.single_category_rows / self.rows if self.rows else 0.0
        return "\n".join(
            [
                f"similarity attack on {self.table}: {self.groups} groups, {self.rows} rows",
                f"  rows in single-category groups  {self.single_category_rows} ({share:.2f}%)"
                f" in {self.single_category_groups} groups",
                f"  highest value confidence        {self.value_confidence} ({float(self.value_confidence):.4f})"
                f" for {self.value!r} in a group of {self.value_group_size}",
                f"  highest category confidence     {self.category_confidence}"
                f" ({float(self.category_confidence):.4f}) for category {self.category}"
                f" in a group of {self.category_group_size}",
            ]
        )


def _categories(
    categories: Mapping[Any, int] | str | Path | None, stored: dict[str, int] | None
) -> dict[str, int]:
    if categories is None:
        if stored is None:
            raise BadInput(
                "no sensitivity categories given or stored for this table's SA",
                "give --categories FILE (value;category), or store them once: "
                "ldiv hierarchy import-categories DB --table T --column SA FILE",
            )
        return stored
    if isinstance(categories, str | Path):
        return read_categories(categories)
    return {str(sql_text(v)): int(r) for v, r in categories.items() if v is not None}


def similarity(
    db: Any,
    table: str,
    qi: str | Sequence[str] | None,
    sa: str,
    categories: Mapping[Any, int] | str | Path | None = None,
    group_column: str | None = None,
) -> SimilarityResult:
    """Similarity-attack exposure of ``table`` (a published release or any table): groups are the rows with
    equal ``qi`` values, or equal ``group_column`` values when given; on a release ldiv_db recorded, its
    classes (its published group column with the QI labels, :mod:`ldiv_db.core.classes`). ``categories`` maps SA value ->
    category rank (1 = most sensitive), or is a ``value;category`` CSV file; None uses the categories
    stored for the SA (of this table, or of the source of the release written to it)."""
    database = Database.open(db, mode="read")
    try:
        published = None
        if group_column is None and qi:  # a recorded release: its classes
            published = published_group_column(database, resolve_table(database, table))
        inputs = resolve_inputs(
            database,
            table,
            qi,
            sa,
            group_column=group_column or published,
            require_qi=group_column is None,
            null_hint=NO_NULL_OPTION,
        )
        inputs = dataclasses.replace(inputs, published_group=published is not None)
        if len(inputs.sa) != 1:
            raise BadInput("the similarity attack takes one sensitive attribute", "name one column with --sa")
        cats = _categories(categories, inputs.categories)
        cat_table = database.work_table("attack_categories")
        database.run(render("privacy/value_table.sql", target=cat_table))
        frame = pd.DataFrame(
            [(1, v, 0, 1, r) for v, r in cats.items()], columns=["s", "v", "p", "q", "category"]
        )
        database.insert_frame(cat_table, frame)
        ctx: dict[str, Any] = {"source": inputs.table.ref, "sa": inputs.sa[0].ident, "categories": cat_table}
        missing = database.rows(render("attack/uncategorized.sql", **ctx))
        if missing:
            shown = ", ".join(repr(v) for v, _ in missing[:10])
            raise BadInput(
                f"{len(missing)} SA value(s) of {inputs.table.name}.{inputs.sa[0].name} have no category: {shown}",
                "add them to the categories file (value;category)",
            )
        cols = partition_columns(inputs)
        texts = [c.is_text for c in cols]
        groups, rows, sc_groups, sc_rows, top_v, top_c = database.one(
            render("attack/similarity.sql", keys=[c.ident for c in cols], texts=texts, **ctx)
        )
        return SimilarityResult(
            table=inputs.table.name,
            groups=int(groups),
            rows=int(rows),
            single_category_groups=int(sc_groups),
            single_category_rows=int(sc_rows),
            value_confidence=Fraction(int(top_v["n"]), int(top_v["size"])),
            value=top_v["v"],
            value_group_size=int(top_v["size"]),
            category_confidence=Fraction(int(top_c["n"]), int(top_c["size"])),
            category=None if top_c["category"] is None else int(top_c["category"]),
            category_group_size=int(top_c["size"]),
        )
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()
