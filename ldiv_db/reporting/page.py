"""The report page of one or several releases: charts from :mod:`.charts`, numbers from :mod:`.gather`,
assembled by ``render.render_html`` into one self-contained HTML file (inline CSS and SVG, no script, no
network)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..sqlgen.render import html_safe, render_html
from ..util.words import COUNTS, METRICS, number, percent, show
from ..version import __version__
from .charts import Chart, Histogram, Look, Threshold, bar_chart, grouped_bars
from .gather import ENTROPY_WIDTH, MissingRelease, ReleaseFacts, confidence_bins

SA_SHOWN = 15  # SA values drawn one by one; the rest are summed into "other values"
SIZE_BARS = 30  # class sizes drawn one by one; beyond that, sizes are binned

# the utility metrics of the page's table, in this order (labels, units and meanings: ldiv_db/util/words.py)
METRIC_KEYS = ("ncp", "il", "dm", "cavg", "kl", "stars", "arx_loss", "lm", "noise")


def fmt(x: Any, digits: int = 4) -> str:
    """A plain number for people (:func:`ldiv_db.util.words.number`)."""
    return number(x, digits)


def pct(x: Any) -> str:
    return percent(x)


def _num(key: str, value: Any, text: str | None = None, label: str | None = None) -> dict[str, Any]:
    """A number cell: the shown text (in the figure's unit, :func:`ldiv_db.util.words.show`), its label and
    the exact value a test (or a script) can read back."""
    exact = "" if value is None else (str(value) if not isinstance(value, float) else repr(value))
    base = key.split("@")[0]
    shown = text if text is not None else show(base, value)
    return {"key": key, "value": exact, "text": shown, "label": label or LABELS.get(base, base)}


# the labels of the page's number tables (the row counts' words: ldiv_db/util/words.py)
LABELS: dict[str, str] = {
    **COUNTS,
    "classes": "classes (rows an attacker cannot tell apart)",
    "k": "k (smallest class)",
    "distinct_l": "distinct l (fewest SA values in a class)",
    "entropy_l": "entropy l (exp of the smallest class entropy)",
    "frequency_l": "frequency l (min |G|/h(G))",
    "max_confidence": "highest value confidence",
    "risk_max": "re-identification risk, highest (1/k)",
    "risk_avg": "re-identification risk, average per row",
    "risk_above_1/20": "rows with risk above 5 %",
    "risk_above_1/10": "rows with risk above 10 %",
    "risk_above_1/5": "rows with risk above 20 %",
}


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
    look = Look(
        "Class sizes (rows with equal published QI labels)",
        xlabel="rows in the class",
        ylabel="classes",
        rotate=len(labels) > 6,
        log=max(values, default=1) > 50 * max(min(values, default=1), 1),
    )
    return bar_chart(name, labels, values, look)


def _sa_suffix(j: int) -> str:
    """The name part of the j-th SA's chart or number (none for the first: one-SA pages keep theirs)."""
    return f"-{j}" if j else ""


def _diversity_charts(prefix: str, f: ReleaseFacts) -> list[Chart]:
    """Per SA: histograms of the per-class distinct count, entropy l and highest confidence, each with
    that SA's l drawn in at its value."""
    charts = []
    for j, sa in enumerate(f.diversity):
        d, e = f.diversity[sa]["distinct"], f.diversity[sa]["entropy"]
        l = f.l_of(j)
        of = f" of {sa}" if len(f.diversity) > 1 else ""
        tail = _sa_suffix(j)
        charts += [
            bar_chart(
                f"{prefix}distinct{tail}",
                [str(b.bin) for b in d],
                [b.classes for b in d],
                Look(
                    f"Distinct SA values{of} per class",
                    "distinct values in the class",
                    "classes",
                    integer_x=True,
                ),
                threshold=None if l is None else Threshold(float(l), f"l = {l}"),
                bins=Histogram([b.bin - 0.4 for b in d]),
            ),
            bar_chart(
                f"{prefix}entropy{tail}",
                [f"{b.bin * ENTROPY_WIDTH:g}" for b in e],
                [b.classes for b in e],
                Look(
                    f"Entropy l{of} per class (exp of the SA entropy)",
                    f"entropy l (bins of {ENTROPY_WIDTH:g})",
                    "classes",
                ),
                threshold=None if l is None else Threshold(float(l), f"entropy l = {l}"),
                bins=Histogram([b.bin * ENTROPY_WIDTH for b in e], ENTROPY_WIDTH),
            ),
            _confidence_chart(f"{prefix}confidence{tail}", f, sa, l),
        ]
    return charts


def _confidence_chart(name: str, f: ReleaseFacts, sa: str | None = None, l: int | None = None) -> Chart:
    """Classes by their highest value confidence of ``sa`` (default: the first SA, at its l)."""
    sa = sa if sa is not None else next(iter(f.diversity))
    if l is None:
        l = f.l_of(list(f.diversity).index(sa))
    c = f.diversity[sa]["confidence"]
    bins = confidence_bins(l)
    title = (
        f"Highest value confidence of {sa} per class"
        if len(f.diversity) > 1
        else "Highest value confidence per class (the attacker's best guess)"
    )
    return bar_chart(
        name,
        [f"≤{b.bin / bins:.2f}" for b in c],
        [b.classes for b in c],
        Look(title, "max over SA values of rows / |G|", "classes"),
        threshold=None if l is None else Threshold(1 / l, f"1/l = 1/{l}"),
        bins=Histogram([(b.bin - 1) / bins for b in c], 1 / bins),
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


def _risk_figures(f: ReleaseFacts) -> list[dict[str, Any]]:
    """``ldiv risk``'s figures of the release, each with its footnote: formula, assumption, paper."""
    if "risk" not in f.extra:
        return []
    out = []
    for fig in f.extra["risk"].figures():
        d = fig.to_dict()
        label = d["label"] + (f" — {fig.key.split(':', 1)[1]}" if ":" in fig.key else "")
        text = "n/a" if d["value"] is None else pct(d["value"])
        out.append({**d, "label": label, "text": text, "exact": d["exact"] or repr(d["value"])})
    return out


def _loss_chart(name: str, f: ReleaseFacts) -> Chart:
    """What the QIs lost: NCP per QI; for Decomposition+, which publishes its QIs unchanged and noises
    its SAs instead, the SA values replaced by noise per SA."""
    if f.recorded is not None and f.recorded["algorithm"] == "decomposition":
        noise = (f.recorded.get("details") or {}).get("noise_by_sa") or {}
        return bar_chart(
            name,
            list(f.sa),
            [int(noise.get(sa, 0)) for sa in f.sa],
            Look(
                "Noise per SA (values replaced; the QIs are published unchanged, NCP 0 %)",
                ylabel="SA values replaced",
            ),
        )
    return bar_chart(
        name,
        [q for q, _, _ in f.qi_ncp],
        [v * 100 for _, v, _ in f.qi_ncp],
        Look(
            "Generalization per QI (average NCP of its cells)",
            ylabel=METRICS["ncp"].axis,
            rotate=len(f.qi_ncp) > 4,
        ),
    )


def _privacy_numbers(f: ReleaseFacts) -> list[dict[str, Any]]:
    """The privacy table: the classes' numbers, then each SA's own diversity (one SA's l is never shown
    beside another's chart: a page of several SAs names the SA in every row)."""
    chk, risk = f.check, f.risk
    out = [_num("classes", chk.groups), _num("k", chk.k)]
    many = len(chk.per_sa) > 1
    for j, s in enumerate(chk.per_sa):
        values = (
            ("distinct_l", s.summary.distinct_l),
            ("entropy_l", s.summary.entropy_l),
            ("frequency_l", s.summary.frequency_l),
            ("max_confidence", f.max_confidence_of(s.name)),
        )
        for k, v in values:
            key, label = (f"{k}@{s.name}", f"{LABELS[k]}, SA {s.name}") if many else (k, LABELS[k])
            out.append(_num(key, v, fmt(v) if k == "frequency_l" else None, label))
        if many and f.l_of(j) is not None:
            out.append(_num(f"l@{s.name}", f.l_of(j), label=f"l judged against, SA {s.name}"))
    out += [
        _num("risk_max", risk.max, pct(risk.max)),
        _num("risk_avg", risk.average, pct(risk.average)),
        *[_num(f"risk_above_{t}", v, pct(v)) for t, v in risk.above.items()],
    ]
    return out


def release_section(f: ReleaseFacts, index: int) -> dict[str, Any]:
    """The context of one release's section of the report page."""
    p = f"r{index}-"
    privacy: list[Chart] = [_size_chart(f"{p}class-sizes", f)]
    privacy += _diversity_charts(p, f)
    risk = f.risk
    privacy.append(
        bar_chart(
            f"{p}risk",
            [f"> {float(Fraction(t)) * 100:g} %" for t in risk.above],
            [float(v) * 100 for v in risk.above.values()],
            Look("Rows whose re-identification risk 1/|G| exceeds", ylabel="% of published rows"),
        )
    )
    lost = [_loss_chart(f"{p}qi-ncp", f)]
    lost += [_sa_chart(f"{p}sa{_sa_suffix(j)}", f, sa) for j, sa in enumerate(f.sa_counts)]
    m = f.metrics
    rows = [_num("rows_in", f.rows_in), _num("rows_published", f.rows_published)]
    rows.append(_num("rows_deleted", f.rows_deleted))
    if f.rows_waiting:
        rows.append(_num("rows_waiting", f.rows_waiting))
    rows += [
        _num("cells_suppressed", f.cells_suppressed),
        _num("rows_with_suppressed_cells", f.rows_with_suppressed_cells),
    ]
    return {
        "f": f,
        "anchor": f"release-{index}",
        "missing": False,
        "charts": [_chart(c) for c in privacy],
        "loss_charts": [_chart(c) for c in lost],
        "rows": rows,
        "privacy": _privacy_numbers(f),
        "metrics": [
            {**_num(key, m.get(key), label=METRICS[key].label), "help": METRICS[key].help}
            for key in METRIC_KEYS
            if key in m
        ],
        "risk_figures": _risk_figures(f),
        "kl_note": m.get("kl_note"),
        "metrics_note": m.get("metrics_note"),
    }


def _chart(c: Chart) -> dict[str, Any]:
    return {"name": c.name, "svg": html_safe(c.svg), "bars": c.bars, "points": c.points}


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
