"""l+-Optimize's input, built in SQL once: every row mapped to its leaf node per QI and compressed into
the (leaf vector, SA value[, class]) → count histogram (``sql/lplus/rows.sql``, ``histogram.sql``), with
the QI taxonomies (the store's preorder arrays, plus the ARX levels a full-domain search needs)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ... import taxonomy
from ...core.catalog import Column
from ...errors import BadInput
from ...privacy.l_plus import LPlus
from ...sqlgen.render import TableRef, render
from ...util.lazy import library
from ..base import AnonymizeRequest
from ..shared.trees import narrow_dtype
from .problem import Metric, Problem, Scheme, Taxonomy

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")


def taxonomies(hierarchies: Sequence[taxonomy.Hierarchy], with_levels: bool) -> list[Taxonomy]:
    """Each QI's taxonomy; ``with_levels``: with the node every leaf generalizes to at each ARX level."""
    out = []
    for h in hierarchies:
        levels: tuple[tuple[int, ...], ...] = ()
        if with_levels:
            levels = tuple(
                tuple(
                    h.node_id(h.level_label(lab, k)) if h.is_leaf(lab) else i
                    for i, lab in enumerate(h.labels)
                )
                for k in range(h.levels)
            )
        out.append(Taxonomy(h.arrays, levels))
    return out


@dataclass
class Histogram:
    problem: Problem
    frame: pd.DataFrame  # per histogram cell: s, k (the leaf ids are problem.leaf, the counts problem.count)
    rows: TableRef  # the rows with their leaf ids (work table)
    sa_values: list[Any]
    thetas: list[Fraction]


def build(
    request: AnonymizeRequest,
    model: LPlus,
    taxes: list[Taxonomy],
    hids: Sequence[int],
    metric: Metric,
    scheme: Scheme,
    klass: Column | None,
) -> Histogram:
    """Rows → leaf ids and the compressed histogram (SQL), then the search's :class:`Problem`."""
    db, inputs = request.db, request.inputs
    d = len(inputs.qi)
    rows = db.work_table("lplus_rows")
    db.run(
        render(
            "lplus/rows.sql",
            {"hids": list(hids)},
            target=rows,
            source=inputs.table.ref,
            qi=[c.ident for c in inputs.qi],
            sa=inputs.sa[0].ident,
            klass=klass.ident if klass is not None else None,
        )
    )
    hist = db.df(render("lplus/histogram.sql", rows=rows, d=d), bulk=True)
    for i, col in enumerate(inputs.qi, 1):
        if hist[f"l{i}"].isna().any():
            count, sample = taxonomy.missing_values(db, inputs.table, col, hids[i - 1])
            raise BadInput(
                f"{count} value(s) of {col.name!r} are not leaves of its hierarchy: {', '.join(sample)}",
                "re-import the hierarchy with a row for every data value",
            )
    # codes in order of first appearance; the NULL value (--null-as-value) is None, as the thresholds and
    # the verification key it (pandas reads it as NaN, which would be keyed and shown as 'nan')
    sa_codes, uniques = pd.factorize(hist["s"], use_na_sentinel=False)
    sa_values = [None if pd.isna(v) else v for v in uniques]
    counts = np.bincount(sa_codes, weights=hist["n"].to_numpy(dtype=np.float64), minlength=len(sa_values))
    theta = model.resolve({1: [(v, int(counts[i])) for i, v in enumerate(sa_values)]})
    thetas = [theta[(1, v)] for v in sa_values]
    classes = sorted({str(k) for k in hist["k"].tolist()}) if klass is not None else []
    class_codes = (
        np.asarray(hist["k"].astype(str).map({c: i for i, c in enumerate(classes)}), dtype=np.int64)
        if klass is not None
        else None
    )
    # the leaf ids as fetched (32-bit, histogram.sql), never widened: 64-bit they were 48 bytes a cell
    leaf = np.stack([hist[f"l{i}"].to_numpy(dtype=np.int32) for i in range(1, d + 1)]).reshape(d, -1)
    problem = Problem(
        taxonomies=taxes,
        leaf=leaf.astype(narrow_dtype(leaf), copy=False),
        sa=sa_codes.astype(np.int64, copy=False),
        count=hist["n"].to_numpy(dtype=np.int64, copy=True),
        theta=[(th.numerator, th.denominator) for th in thetas],
        metric=metric,
        scheme=scheme,
        klass=class_codes,
        total_rows=inputs.rows,
    )
    # the frame keeps only what the publish step reads besides the leaf ids (those it takes from the
    # problem): its block of leaf ids and counts is freed before the search (48 bytes a cell with six QIs)
    kept = pd.DataFrame({"s": hist["s"], "k": hist["k"]})
    return Histogram(problem, kept, rows, sa_values, thetas)
