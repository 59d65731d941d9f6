"""The taxonomy store: hierarchies in ``ldiv.hierarchy`` / ``ldiv.hierarchy_node`` /
``ldiv.hierarchy_level`` (SPEC §0.4). Reading a stored taxonomy happens here only: :func:`load_arrays`
gives the preorder arrays every algorithm builds on, :func:`load` the full model."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.catalog import Column, Table, resolve_table
from ..core.ownership import refuse_ldiv_table
from ..core.stored import column_key
from ..db import Database
from ..errors import HierarchyError
from ..sqlgen.render import TableRef, render
from ..util.lazy import library
from .arrays import TaxonomyArrays
from .categories import show_categories
from .model import Hierarchy, Number
from .parsers import build_intervals, parse_arx

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:
    np = library("numpy")
    pd = library("pandas")

KINDS = ("imported", "intervals", "flat")
SHOW_LINES = 40  # tree lines per hierarchy in show_hierarchy (the summary line comes on top)
_NODE_TABLE = TableRef("hierarchy_node", "ldiv")
_LEVEL_TABLE = TableRef("hierarchy_level", "ldiv")


@dataclass(frozen=True)
class HierarchyInfo:
    """One stored hierarchy (a row of ldiv.hierarchy)."""

    table: str
    column: str
    kind: str
    height: int
    leaves: int
    nodes: int
    source: str | None
    hierarchy_id: int

    def __str__(self) -> str:
        source = f", source {self.source}" if self.source else ""
        return (
            f"{self.table}.{self.column}: {self.kind}, {self.height} levels, {self.leaves} leaves, "
            f"{self.nodes} nodes{source}"
        )


def store(
    db: Database, table: Table, column: Column, hierarchy: Hierarchy, kind: str, source: str | None
) -> int:
    """Write a hierarchy into ldiv.hierarchy/_node/_level in one transaction, replacing the one stored
    for the same (table, column); returns the new hierarchy_id."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    h = hierarchy
    key = column_key(table, column)
    with db.transaction():
        db.run(render("taxonomy/delete_levels.sql", key))
        db.run(render("taxonomy/delete_nodes.sql", key))
        db.run(render("taxonomy/delete_hierarchy.sql", key))
        hid = int(
            db.scalar(
                render(
                    "taxonomy/insert_hierarchy.sql",
                    {
                        **key,
                        "kind": kind,
                        "height": h.levels,
                        "leaves": h.domain_size,
                        "nodes": len(h),
                        "source": source,
                    },
                )
            )
        )
        db.insert_frame(_NODE_TABLE, _node_frame(h, hid))
        db.insert_frame(_LEVEL_TABLE, _level_frame(h, hid))
    return hid


def _node_frame(h: Hierarchy, hid: int) -> pd.DataFrame:
    """Rows of ldiv.hierarchy_node: the preorder arrays of the model, one row per node."""
    n = len(h)
    ranges = h._numeric_ranges()
    lo, hi = ranges if ranges is not None else ([math.nan] * n, [math.nan] * n)
    parent = np.array(h._parent, dtype=np.float64)
    parent[0] = np.nan  # DuckDB reads NaN from a pandas float column as NULL
    return pd.DataFrame(
        {
            "hierarchy_id": np.full(n, hid, dtype=np.int32),
            "node_id": np.arange(n, dtype=np.int32),
            "label": np.array(h._labels, dtype=object),
            "parent_id": parent,
            "depth": np.array(h._depth, dtype=np.int32),
            "height": np.array(h._height, dtype=np.int32),
            "n_leaves": np.array(h._n_leaves, dtype=np.int32),
            "last_leaf": np.array(h._last, dtype=np.int32),
            "lo": np.array(lo, dtype=np.float64),
            "hi": np.array(hi, dtype=np.float64),
        }
    )


def _level_frame(h: Hierarchy, hid: int) -> pd.DataFrame:
    """Rows of ldiv.hierarchy_level (leaf, level, label), built level by level with numpy."""
    labels = np.array(h._labels, dtype=object)
    parent = np.array(h._parent, dtype=np.int64)
    parent[0] = 0  # walking up from the root stays at the root
    leaf_ids = np.flatnonzero(np.array(h._height, dtype=np.int32) == 0)
    n_leaves, levels = len(leaf_ids), h.levels
    columns = []
    current = leaf_ids
    for _ in range(levels):
        columns.append(labels[current])
        current = parent[current]
    label = np.concatenate(columns)
    if h._short_rows:
        position = {h._labels[i]: p for p, i in enumerate(leaf_ids.tolist())}
        for leaf, row in h._short_rows.items():
            label[np.arange(levels) * n_leaves + position[leaf]] = row
    return pd.DataFrame(
        {
            "hierarchy_id": np.full(n_leaves * levels, hid, dtype=np.int32),
            "leaf": np.tile(labels[leaf_ids], levels),
            "level": np.repeat(np.arange(levels, dtype=np.int32), n_leaves),
            "label": label,
        }
    )


def list_hierarchies(
    db: Database, table_name: str | None = None, column_name: str | None = None
) -> list[HierarchyInfo]:
    """Stored hierarchies, optionally of one table (its resolved name, e.g. ``main.adult``) and column."""
    return db.fetch(
        render("taxonomy/list.sql", {"table_name": table_name, "column_name": column_name}), HierarchyInfo
    )


def load_arrays(db: Database, hids: Sequence[int]) -> dict[int, TaxonomyArrays]:
    """The stored taxonomies ``hids`` as preorder arrays, by hierarchy id: the one place a stored tree is
    read (``taxonomy/arrays.sql``); :func:`load` and the algorithms build on it."""
    wanted = sorted(set(hids))
    if not wanted:
        return {}
    nodes = db.columns(render("taxonomy/arrays.sql", {"hids": wanted}), bulk=True)
    ints = {
        c: np.asarray(nodes[c], dtype=np.int64)
        for c in ("parent_id", "depth", "height", "n_leaves", "last_leaf")
    }
    hid = np.asarray(nodes["hierarchy_id"], dtype=np.int64)
    labels = np.asarray(nodes["label"], dtype=object)
    # the rows come ordered by hierarchy, then node: each hierarchy is one run of them
    starts = np.flatnonzero(np.r_[True, hid[1:] != hid[:-1]]) if len(hid) else hid
    out: dict[int, TaxonomyArrays] = {}
    for lo, hi in zip(starts.tolist(), [*starts[1:].tolist(), len(hid)], strict=True):
        out[int(hid[lo])] = TaxonomyArrays(
            labels=tuple(str(x) for x in labels[lo:hi].tolist()),
            parent=ints["parent_id"][lo:hi].copy(),
            depth=ints["depth"][lo:hi].copy(),
            height=ints["height"][lo:hi].copy(),
            n_leaves=ints["n_leaves"][lo:hi].copy(),
            last=ints["last_leaf"][lo:hi].copy(),
        )
    return out


def load(db: Database, table_name: str, column_name: str) -> Hierarchy | None:
    """The hierarchy stored for a (resolved table name, column name), or None."""
    found = list_hierarchies(db, table_name, column_name)
    if not found:
        return None
    info = found[0]
    arrays = load_arrays(db, [info.hierarchy_id])[info.hierarchy_id]
    short: dict[str, list[str]] = {}
    for leaf, label in db.rows(render("taxonomy/short_rows.sql", {"hierarchy_id": info.hierarchy_id})):
        short.setdefault(str(leaf), []).append(str(label))
    return Hierarchy._from_arrays(arrays, info.height, short)


def missing_values(db: Database, table: Table, column: Column, hierarchy_id: int) -> tuple[int, list[str]]:
    """Distinct non-NULL data values (as VARCHAR) that are not leaves of the hierarchy: (count, first 10
    in sorted order). Computed in SQL (DESIGN §6: a hierarchy missing a data value names the value)."""
    query = render(
        "taxonomy/missing_values.sql", {"hierarchy_id": hierarchy_id}, source=table.ref, column=column.ident
    )
    rows = db.rows(query)
    if not rows:
        return 0, []
    return int(rows[0][1]), [str(r[0]) for r in rows]


def import_hierarchy(
    db: Database, table_spelled: str, column_spelled: str, path: str | Path, sep: str = ";"
) -> HierarchyInfo:
    """Parse an ARX hierarchy file, check it covers every value of the column, and store it (replacing
    any previous one). Nothing is stored when a check fails."""
    table = resolve_table(db, table_spelled)
    refuse_ldiv_table(table.ref, "store a hierarchy for")
    column = table.column(column_spelled)
    path = Path(path)
    hierarchy = parse_arx(path, sep)
    with db.transaction():
        hid = store(db, table, column, hierarchy, "imported", str(path.resolve()))
        count, examples = missing_values(db, table, column, hid)
        if count:
            shown = ", ".join(repr(v) for v in examples)
            more = f" (showing the first {len(examples)})" if count > len(examples) else ""
            raise HierarchyError(
                f"hierarchy file {path} lacks {count} value{'s' if count != 1 else ''} of "
                f"{table.name}.{column.name}: {shown}{more}",
                f"add a row for each missing value to {path} (leaf{sep}level 1{sep}...{sep}root)",
            )
    return _info(db, table, column)


def build_hierarchy(
    db: Database, table_spelled: str, column_spelled: str, widths: Sequence[Number]
) -> HierarchyInfo:
    """Build and store an interval hierarchy for a numeric column from its distinct values (read in SQL)."""
    table = resolve_table(db, table_spelled)
    refuse_ldiv_table(table.ref, "store a hierarchy for")
    column = table.column(column_spelled)
    if not column.is_numeric:
        raise HierarchyError(
            f"column {column.name!r} of {table.name} is {column.data_type}, not numeric; "
            "interval hierarchies need numbers",
            "import an ARX hierarchy file for this column instead",
        )
    dtype = column.data_type.upper()
    fractional = dtype in ("FLOAT", "DOUBLE", "REAL") or (dtype.startswith("DECIMAL") and ",0)" not in dtype)
    integer = not fractional
    pairs = db.rows(render("taxonomy/distinct_values.sql", source=table.ref, column=column.ident))
    hierarchy = build_intervals({str(label): value for label, value in pairs}, widths, integer=integer)
    source = "intervals " + ", ".join(str(w) for w in widths)
    store(db, table, column, hierarchy, "intervals", source)
    return _info(db, table, column)


def _info(db: Database, table: Table, column: Column) -> HierarchyInfo:
    return list_hierarchies(db, table.name, column.name)[0]


def show_hierarchy(
    db: Database,
    table_spelled: str,
    column_spelled: str | None = None,
    weights: object = None,
    beta: object = 2,
) -> str:
    """Readable text: per hierarchy a summary line and the tree (indented by depth, leaf counts), at most
    SHOW_LINES tree lines: the deepest levels that fit are shown in full, the rest is counted. Then the
    stored sensitivity categories with their weights under ``weights`` (uniform by default) and ``beta``."""
    table = resolve_table(db, table_spelled)
    column = table.column(column_spelled) if column_spelled is not None else None
    infos = list_hierarchies(db, table.name, column.name if column else None)
    category_lines = show_categories(db, table, column, weights, beta)
    if not infos and not category_lines:
        what = f"{table.name}.{column.name}" if column else table.name
        return f"no hierarchies stored for {what}"
    out: list[str] = []
    for info in infos:
        out.append(str(info))
        t = load_arrays(db, [info.hierarchy_id])[info.hierarchy_id]
        out.extend(_tree_lines(list(t.labels), t.depth.tolist(), t.n_leaves.tolist(), t.height.tolist()))
    out.extend(category_lines)
    return "\n".join(out)


def _leaves(n: int) -> str:
    return "1 leaf" if n == 1 else f"{n} leaves"


def _tree_lines(labels: list[str], depths: list[int], n_leaves: list[int], heights: list[int]) -> list[str]:
    """Preorder lines indented by depth. A tree longer than SHOW_LINES is cut at the deepest depth whose
    nodes (with all shallower ones) fit, never above depth 1, and a last line counts what was left out."""
    keep: Sequence[int] = range(len(labels))
    if len(labels) > SHOW_LINES:
        room = SHOW_LINES - 1  # one line for the "not shown" note
        per_depth: dict[int, int] = {}
        for d in depths:
            per_depth[d] = per_depth.get(d, 0) + 1
        cut, used = 1, 0
        for d in sorted(per_depth):
            used += per_depth[d]
            if used > room:
                break
            cut = max(cut, d)
        keep = [i for i in range(len(labels)) if depths[i] <= cut][:room]
    lines = [
        "  " * (depths[i] + 1) + (labels[i] if heights[i] == 0 else f"{labels[i]} ({_leaves(n_leaves[i])})")
        for i in keep
    ]
    if len(lines) < len(labels):
        lines.append(f"  ... {len(labels) - len(lines)} more nodes not shown")
    return lines


# ------------------------------------------------------------------- sensitivity categories (SPEC §3.1)
