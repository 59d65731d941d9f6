"""``ldiv metrics``: the utility metrics of a release against its source. Kept apart from the API so that
the command loads only what it measures with (no algorithm, no report, no pandas)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.catalog import resolve_table
from ..core.inputs import NULL_HINT, as_list, resolve_inputs
from ..core.recorded import (
    INTERVAL_ALGORITHMS,
    recorded_flat_labels,
    recorded_null_as_value,
    recorded_release,
)
from ..core.run_flags import MetricsFlags, api_flags
from ..db import Database
from ..util.words import METRICS, percent, show
from ..utility import Measured, MetricsOptions, compute_metrics


@dataclass
class MetricsResult:
    source: str
    release: str
    values: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "release": self.release, **self.values}

    def render_text(self) -> str:
        """One line per figure in its unit (:mod:`ldiv_db.util.words`); a note only where there is one."""
        v = self.values
        lines = [f"release {self.release} of {self.source}"]
        shown = [k for k in METRIC_LINES if k in v]
        lines += [f"  {METRICS[k].label:<26} {show(k, v[k])}" for k in shown]
        risk = v.get("risk")
        if risk:
            lines.append(
                f"  {'re-identification risk':<26} highest {percent(risk['highest'])}, average "
                f"{percent(risk['average'])}, rows above 5/10/20 %: {percent(risk['above_5pct'])} / "
                f"{percent(risk['above_10pct'])} / {percent(risk['above_20pct'])}"
            )
        if v.get("kl_note"):
            lines.append(f"  KL: {v['kl_note']}")
        return "\n".join(lines)


# the figures of ``ldiv metrics``' text, in this order (the rows first, in the words of ldiv_db/util/words.py)
METRIC_LINES = (
    "rows", "deleted_rows", "cells_suppressed", "rows_with_suppressed_cells", "classes", "k",
    "ncp", "il", "lm", "dm", "cavg", "kl", "stars", "arx_loss", "cm",
)  # fmt: skip


def metrics(
    db: Any,
    source: str,
    release: str,
    qi: str | Sequence[str],
    sa: str | Sequence[str],
    *,
    flags: MetricsFlags | None = None,
    **kw: Any,
) -> MetricsResult:
    """Utility metrics (IL/NCP, LM, DM, CAVG, KL, CM, stars, ARX loss) of ``release`` against ``source``.
    ``kw``: the keywords of :class:`~ldiv_db.core.run_flags.MetricsFlags` (``l``, ``class_column``,
    ``group_column``, ``weights``, ``interval_labels``, ``kl``, ``null_as_value``), or ``flags`` validated.
    A release ldiv_db recorded is read as it was measured when written: its numeric 'lo-hi' labels as
    intervals where its algorithm publishes them so (``interval_labels`` None), its l for CAVG, its
    source's NULLs as values where its run took them so."""
    f = api_flags(MetricsFlags, flags, kw, "ldiv_db.metrics")
    l, class_column, group_column, interval_labels = f.l, f.class_column, f.group_column, f.interval_labels
    database = Database.open(db, mode="read")
    try:
        rel = resolve_table(database, release)
        rec = recorded_release(database, release)
        null_as_value = f.null_as_value or recorded_null_as_value(rec)
        src = resolve_inputs(database, source, qi, sa, null_hint=NULL_HINT, null_as_value=null_as_value)
        if interval_labels is None:
            interval_labels = rec is not None and rec["algorithm"] in INTERVAL_ALGORITHMS
        if l is None and rec is not None and rec["l"] and len(set(rec["l"])) == 1:
            l = int(rec["l"][0])
        for name in [*as_list(qi), *as_list(sa)]:
            rel.column(name)
        group = None
        if group_column:
            names = {c.name.lower() for c in rel.columns}
            group = rel.column(group_column).name if group_column.lower() in names else None
        klass = rel.column(class_column).name if class_column else None
        how = MetricsOptions(
            l=l,
            weights=list(f.weights) if f.weights else None,
            interval_labels=[c.is_numeric for c in src.qi] if interval_labels else None,
            kl=f.kl,
            sa_null_values=src.sa_null_values,
            flat_labels=recorded_flat_labels(rec),
        )
        values = compute_metrics(
            database, Measured(src.table, rel, src.qi, src.sa, group, klass), how
        ).to_dict()
        return MetricsResult(src.table.name, rel.name, values)
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()
