"""The comparison page: one table and one plot per criterion across the releases, the releases side by
side, and the plain-language notes of :func:`.compare.tradeoffs`."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from ..sqlgen.render import html_safe, render_html
from ..util.words import METRICS, l_of, show
from ..version import __version__
from .charts import Chart, Look, bar_chart, scatter
from .gather import comparable, summary
from .page import _confidence_chart, _num, _size_chart, fmt, pct

if TYPE_CHECKING:
    from .comparison import CompareResult

CRITERIA = (
    # key, title (the axis label and unit: ldiv_db/util/words.py)
    ("ncp", "Information loss (NCP)"),
    ("dm", "Discernibility (DM)"),
    ("kl", "KL-divergence from the source"),
    ("rows_deleted", "Rows deleted (not published)"),
    ("cells_suppressed", "Cells suppressed (published as * or unknown)"),
    ("classes", "Classes"),
    ("max_confidence", "Highest value confidence (attacker's best guess)"),
    ("seconds", "Run time (write and verification included)"),
)


def _chart(c: Chart) -> dict[str, Any]:
    return {"name": c.name, "svg": html_safe(c.svg), "bars": c.bars, "points": c.points}


def compare_page(result: CompareResult, database: str) -> str:

    measured = [e for e in result.entries if e.facts is not None]
    rows: list[dict[str, Any]] = []
    for e in result.entries:
        s = summary(e.facts) if e.facts is not None else None
        cells = []
        if s is not None:
            s["seconds"] = e.seconds
            cells = [
                _num("l", s["l"][0] if len(s["l"]) == 1 else None, l_of({"l": s["l"]})),
                *(
                    _num(k, s[k])
                    for k in ("ncp", "dm", "kl", "rows_deleted", "cells_suppressed", "classes", "k")
                ),
                _num("max_confidence", s["max_confidence"]),
                _num("seconds", e.seconds, "–" if e.seconds is None else show("seconds", e.seconds)),
            ]
        rows.append(
            {
                "e": e,
                "s": s,
                "cells": cells,
                "label": e.label,
                "comparable": s is None or comparable(result.l, s),
            }
        )
    charts: list[Chart] = []
    if measured:
        charts.append(
            scatter(
                "cmp-tradeoff",
                [
                    (e.label, 100 * float(e.facts.metrics.get("ncp") or 0.0), e.facts.max_confidence)
                    for e in measured
                    if e.facts is not None
                ],
                title="Utility against privacy (lower left is better on both)",
                xlabel=f"information loss, {METRICS['ncp'].axis}",
                ylabel=METRICS["max_confidence"].label,
            )
        )
        for key, title in CRITERIA:
            scale = 100.0 if METRICS[key].unit == "%" else 1.0
            pairs = [
                (str(r["label"]), r["s"][key]) for r in rows if r["s"] is not None and r["s"][key] is not None
            ]
            if pairs:
                charts.append(
                    bar_chart(
                        f"cmp-{key.replace('_', '-')}",
                        [p for p, _ in pairs],
                        [float(v) * scale for _, v in pairs],
                        Look(title, ylabel=METRICS[key].axis, rotate=len(pairs) > 5),
                    )
                )
    side = []
    for i, e in enumerate(measured, 1):
        assert e.facts is not None
        size = _size_chart(f"s{i}-class-sizes", e.facts)
        conf = _confidence_chart(f"s{i}-confidence", e.facts)
        side.append({"e": e, "f": e.facts, "charts": [_chart(size), _chart(conf)]})
    return render_html(
        "compare.html",
        title=f"ldiv_db comparison: {result.table}, l = {result.l}",
        result=result,
        rows=rows,
        charts=[_chart(c) for c in charts],
        side=side,
        database=database,
        generated=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        version=__version__,
        fmt=fmt,
        pct=pct,
    )
