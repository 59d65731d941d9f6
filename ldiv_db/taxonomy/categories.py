"""Sensitivity categories of an SA column (SPEC §3.1): the ``value;category`` file, the store
(``ldiv.sa_category``) and the text ``ldiv hierarchy show`` prints."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.catalog import Column, Table, resolve_table
from ..core.ownership import refuse_ldiv_table
from ..core.stored import column_key
from ..db import Database
from ..errors import BadInput, HierarchyError
from ..sqlgen.render import TableRef, render
from ..util.files import read_text
from ..util.lazy import library
from .weights import category_weights

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:
    np = library("numpy")
    pd = library("pandas")

_CATEGORY_TABLE = TableRef("sa_category", "ldiv")


@dataclass(frozen=True)
class CategoriesInfo:
    """The sensitivity categories stored for one SA column (rows of ldiv.sa_category)."""

    table: str
    column: str
    categories: dict[str, int]
    unused: int = 0  # stored values that do not occur in the column
    source: str | None = None

    def __str__(self) -> str:
        k = max(self.categories.values()) if self.categories else 0
        unused = f", {self.unused} of them not in the data" if self.unused else ""
        source = f", source {self.source}" if self.source else ""
        return (
            f"{self.table}.{self.column}: sensitivity categories, {k} categories, "
            f"{len(self.categories)} values{unused}{source}"
        )


def check_category_ranks(categories: Mapping[Any, int], where: str) -> None:
    """Ranks must be the integers 1..K with none skipped (1 = most sensitive, SPEC §3.1)."""
    ranks = sorted(set(categories.values()))
    if not ranks:
        raise HierarchyError(f"{where} holds no category")
    gaps = [r for r in range(1, ranks[-1] + 1) if r not in ranks]
    if gaps:
        raise HierarchyError(
            f"{where} skips category {', '.join(map(str, gaps))} of 1..{ranks[-1]}",
            "number the categories 1, 2, ..., K without gaps (1 = most sensitive)",
        )


def import_categories(
    db: Database, table_spelled: str, column_spelled: str, categories: str | Path | Mapping[str, int]
) -> CategoriesInfo:
    """Store the sensitivity categories of an SA column (a ``value;category`` file or a mapping),
    replacing any stored before, after checking that every non-NULL value of the column has one and that
    the ranks are 1..K. Nothing is stored when a check fails."""
    table = resolve_table(db, table_spelled)
    refuse_ldiv_table(table.ref, "store sensitivity categories for")
    column = table.column(column_spelled)
    if isinstance(categories, str | Path):
        source: str | None = str(Path(categories).resolve())
        cats = read_categories(categories)
        where = f"categories file {categories}"
    else:
        source, where = None, "the categories"
        cats = {}
        for v, r in categories.items():
            if v is None:
                raise HierarchyError(
                    "a NULL SA value cannot be stored with a category", "give it in the job/API"
                )
            try:
                rank = None if isinstance(r, bool) or int(r) != r else int(r)
            except (TypeError, ValueError):
                rank = None
            if rank is None or rank < 1:
                raise HierarchyError(f"category of {v!r} must be a positive integer rank, got {r!r}")
            cats[str(v)] = rank
    check_category_ranks(cats, where)
    key = column_key(table, column)
    frame = pd.DataFrame(
        {
            "table_name": table.name,
            "column_name": column.name,
            "value": list(cats),
            "category": np.array(list(cats.values()), dtype=np.int32),
        }
    )
    with db.transaction():
        db.run(render("taxonomy/categories_delete.sql", key))
        db.insert_frame(_CATEGORY_TABLE, frame)
        ctx = {"source": table.ref, "column": column.ident}
        missing = db.rows(render("taxonomy/categories_uncovered.sql", key, **ctx))
        if missing:
            total = int(missing[0][2])
            shown = ", ".join(f"{str(v)!r} ({int(n)} rows)" for v, n, _ in missing)
            more = f" (showing the first {len(missing)})" if total > len(missing) else ""
            raise HierarchyError(
                f"{where} gives no category to {total} value{'s' if total != 1 else ''} of "
                f"{table.name}.{column.name}: {shown}{more}",
                "add a line value;category for each (1 = most sensitive)",
            )
        unused = int(db.scalar(render("taxonomy/categories_unused.sql", key, **ctx)))
    return CategoriesInfo(table.name, column.name, cats, unused, source)


def show_categories(
    db: Database, table: Table, column: Column | None, weights: object = None, beta: object = 2
) -> list[str]:
    """Text lines: per SA column with stored categories, each category with its weight under the scheme
    (uniform, sensitivity with β, or explicit) and its values."""
    columns = [column] if column is not None else list(table.columns)
    out: list[str] = []
    for col in columns:
        rows = db.rows(render("taxonomy/categories_of.sql", column_key(table, col)))
        if not rows:
            continue
        cats = {str(v): int(r) for v, r in rows}
        w = category_weights(cats, weights, beta)
        scheme = "uniform" if weights is None else weights if isinstance(weights, str) else "explicit"
        scheme += f", beta {beta}" if scheme == "sensitivity" else ""
        out.append(
            f"{table.name}.{col.name}: {max(cats.values())} sensitivity categories, {len(cats)} values "
            f"(1 = most sensitive; weights: {scheme})"
        )
        for r in sorted(set(cats.values())):
            values = [v for v, c in cats.items() if c == r]
            shown = ", ".join(values[:12]) + (f", ... ({len(values)} values)" if len(values) > 12 else "")
            wr = w[r]
            out.append(f"  {r}  weight {wr!s:>7} ({float(wr):.4f})  {shown}")
    return out


def read_categories(path: str | Path) -> dict[str, int]:
    """A categories file: CSV ``value;category`` (category an integer rank, 1 = most sensitive)."""
    p = Path(path)
    text = read_text(p, "categories file", "a CSV file of value;category lines (1 = most sensitive)")
    out: dict[str, int] = {}
    first: dict[str, int] = {}
    for lineno, row in enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=";"), 1):
        if not row or not "".join(row).strip():
            continue
        if len(row) != 2:
            raise BadInput(
                f"{p}:{lineno}: expected 'value;category', got {';'.join(row)!r}",
                "one value per line, then ';' and its category rank (1 = most sensitive)",
            )
        value, rank = row[0], row[1].strip()
        if lineno == 1 and not rank.lstrip("-").isdigit():
            continue  # header
        if not rank.isdigit() or int(rank) < 1:
            raise BadInput(
                f"{p}:{lineno}: category of {value!r} must be a positive integer rank, got {rank!r}",
                "ranks are 1, 2, ..., K with 1 = most sensitive",
            )
        if value in out:
            raise BadInput(
                f"{p}:{lineno}: value {value!r} is listed twice (first on line {first[value]})",
                "give every value exactly one category",
            )
        out[value] = int(rank)
        first[value] = lineno
    if not out:
        raise BadInput(f"categories file {p} is empty", "one value;category line per SA value")
    check_category_ranks(out, f"categories file {p}")
    return out
