"""The report page of one or several releases: charts from :mod:`.charts`, numbers from :mod:`.gather`,
assembled by ``render.render_html`` into one self-contained HTML file (inline CSS and SVG, no script, no
network)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..sqlgen.render import html_safe, render_html
from ..version import __version__
from .charts import Chart, bar_chart, grouped_bars
from .gather import ENTROPY_WIDTH, MissingRelease, ReleaseFacts, confidence_bins

SA_SHOWN = 15  # SA values drawn one by one; the rest are summed into "other values"
SIZE_BARS = 30  # class sizes drawn one by one; beyond that, sizes are binned

METRIC_HELP = (
    (
        "ncp",
        "NCP",
        "information loss per cell, 0 = original values, 1 = every cell fully generalized (Xu et al. 2006)",
    ),
    ("il", "IL", "the sum of NCP over every published cell (BSGI's information loss)"),
    ("dm", "DM", "discernibility: Σ|G|² over classes plus |T| per deleted row; lower = finer classes"),
    ("cavg", "CAVG", "average class size divided by l; 1 is the ideal"),
    ("kl", "KL", "KL-divergence of the release's (QI, SA) distribution from the source's; 0 = identical"),
    ("stars", "stars", "cells published as * (suppressed values)"),
    ("arx_loss", "ARX Loss", "ARX's loss metric (geometric mean of the per-attribute loss); 0 = none"),
    ("lm", "LM", "loss metric: Σ per cell of (#leaves − 1)/(|A| − 1), deleted rows count fully"),
    ("noise", "noise", "SA values replaced by noise (Decomposition+: the QIs are published unchanged)"),
    ("rows_waiting", "rows waiting", "rows kept back for a later release of the stream (Decomposition+)"),
)


def fmt(x: Any, digits: int = 4) -> str:
    """Numbers for people: thousands separators for integers, 4 significant digits for the rest."""
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, Fraction):
        x = float(x)
    if isinstance(x, float):
        return f"{x:,.{digits}g}" if abs(x) < 1e6 else f"{x:,.0f}"
    return str(x)


def pct(x: Any) -> str:
    return "n/a" if x is None else f"{100 * float(x):.2f} %"


def _num(key: str, value: Any, text: str | None = None) -> dict[str, Any]:
    """A number cell: the shown text and the exact value a test (or a script) can read back."""
    exact = "" if value is None else (str(value) if not isinstance(value, float) else repr(value))
    return {"key": key, "value": exact, "text": text if text is not None else fmt(value)}


def _size_chart(name: str, f: ReleaseFacts) -> Chart:
    sizes = f.class_sizes
    if len(sizes) <= SIZE_BARS:
        labels = [str(s) for s, _ in sizes]
        values = [c for _, c in sizes]
    else:  # powers of two: 1, 2-3, 4-7, ...
        bins: dict[int, int] = {}
        for s, c in sizes:
            b = s.bit_length() - 1
            bins[b] = bins.get(b, 0) + c
        labels = [f"{1 << b}–{(1 << (b + 1)) - 1}" if b else "1" for b in sorted(bins)]
        values = [bins[b] for b in sorted(bins)]
    return bar_chart(
        name,
        labels,
        values,
        title="Class sizes (rows with equal published QI labels)",
        xlabel="rows in the class",
        ylabel="classes",
        rotate=len(labels) > 6,
        log=max(values, default=1) > 50 * max(min(values, default=1), 1),
    )


def _diversity_charts(prefix: str, f: ReleaseFacts) -> list[Chart]:
    """Histograms of the per-class distinct count, entropy l and highest confidence, with l drawn in."""
    d, e = f.diversity["distinct"], f.diversity["entropy"]
    l = f.l
    return [
        bar_chart(
            f"{prefix}distinct",
            [str(b.bin) for b in d],
            [b.classes for b in d],
            xs=[b.bin - 0.4 for b in d],
            title="Distinct SA values per class",
            xlabel="distinct values in the class",
            ylabel="classes",
            threshold=None if l is None else l - 0.5,
            threshold_label=f"l = {l}",
        ),
        bar_chart(
            f"{prefix}entropy",
            [f"{b.bin * ENTROPY_WIDTH:g}" for b in e],
            [b.classes for b in e],
            xs=[b.bin * ENTROPY_WIDTH for b in e],
            width=ENTROPY_WIDTH,
            title="Entropy l per class (exp of the SA entropy)",
            xlabel=f"entropy l (bins of {ENTROPY_WIDTH:g})",
            ylabel="classes",
            threshold=None if l is None else float(l),
            threshold_label=f"entropy l = {l}",
        ),
        _confidence_chart(f"{prefix}confidence", f),
    ]


def _confidence_chart(name: str, f: ReleaseFacts) -> Chart:
    c = f.diversity["confidence"]
    l = f.l
    bins = confidence_bins(l)
    return bar_chart(
        name,
        [f"≤{b.bin / bins:.2f}" for b in c],
        [b.classes for b in c],
        xs=[(b.bin - 1) / bins for b in c],
        width=1 / bins,
        title="Highest value confidence per class (the attacker's best guess)",
        xlabel="max over SA values of rows / |G|",
        ylabel="classes",
        threshold=None if l is None else 1 / l,
        threshold_label=f"1/l = 1/{l}",
    )


def _sa_chart(name: str, f: ReleaseFacts, sa: str) -> Chart:
    counts = f.sa_counts[sa]
    shown = counts[:SA_SHOWN]
    rest = counts[SA_SHOWN:]
    labels = ["(suppressed)" if v is None else v for v, _, _ in shown]
    src = [a for _, a, _ in shown]
    rel = [b for _, _, b in shown]
    if rest:
        labels.append(f"{len(rest)} other values")
        src.append(sum(a for _, a, _ in rest))
        rel.append(sum(b for _, _, b in rest))
    return grouped_bars(
        name,
        labels,
        [(f"source {f.source}", src), (f"release {f.name}", rel)],
        title=f"SA {sa}: rows per value, source against release",
        ylabel="rows",
    )


def release_section(f: ReleaseFacts, index: int) -> dict[str, Any]:
    """The context of one release's section of the report page."""
    p = f"r{index}-"
    charts: list[Chart] = [_size_chart(f"{p}class-sizes", f)]
    charts += _diversity_charts(p, f)
    risk = f.risk
    charts.append(
        bar_chart(
            f"{p}risk",
            [f"> {float(Fraction(t)) * 100:g} %" for t in risk.above],
            [float(v) * 100 for v in risk.above.values()],
            title="Rows whose re-identification risk 1/|G| exceeds",
            ylabel="% of published rows",
        )
    )
    charts.append(
        bar_chart(
            f"{p}qi-ncp",
            [q for q, _, _ in f.qi_ncp],
            [v * 100 for _, v, _ in f.qi_ncp],
            title="Generalization per QI (average NCP of its cells)",
            ylabel="NCP %",
            rotate=len(f.qi_ncp) > 4,
        )
    )
    charts += [_sa_chart(f"{p}sa" + (f"-{j}" if j else ""), f, sa) for j, sa in enumerate(f.sa_counts)]
    m = f.metrics
    chk = f.check
    return {
        "f": f,
        "anchor": f"release-{index}",
        "missing": False,
        "charts": [
            {"name": c.name, "svg": html_safe(c.svg), "bars": c.bars, "points": c.points} for c in charts
        ],
        "rows": [
            _num("rows_in", f.rows_in),
            _num("rows_published", f.rows_published),
            _num("rows_suppressed", f.rows_suppressed),
            _num("rows_deleted", f.rows_deleted),
        ],
        "privacy": [
            _num("classes", chk.groups),
            _num("k", chk.k),
            _num("distinct_l", chk.distinct_l),
            _num("entropy_l", chk.entropy_l),
            _num("frequency_l", chk.frequency_l, fmt(chk.frequency_l)),
            _num("max_confidence", f.max_confidence),
            _num("risk_max", risk.max, pct(risk.max)),
            _num("risk_avg", risk.average, pct(risk.average)),
            *[_num(f"risk_above_{t}", v, pct(v)) for t, v in risk.above.items()],
        ],
        "metrics": [
            {**_num(key, m.get(key)), "label": label, "help": text}
            for key, label, text in METRIC_HELP
            if key in m
        ],
        "kl_note": m.get("kl_note"),
        "metrics_note": m.get("metrics_note"),
    }


def report_page(facts: Sequence[ReleaseFacts | MissingRelease], database: str) -> str:
    sections = [
        {"f": f, "anchor": f"release-{i}", "missing": True}
        if isinstance(f, MissingRelease)
        else release_section(f, i)
        for i, f in enumerate(facts, 1)
    ]
    return render_html(
        "report.html",
        title="ldiv_db report: " + ", ".join(f.name for f in facts),
        database=database,
        sections=sections,
        generated=dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        version=__version__,
        fmt=fmt,
        pct=pct,
    )
