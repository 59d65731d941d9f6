"""Charts as inline SVG, drawn by matplotlib's SVG backend (no display, no pyplot state).

Every bar carries the SVG id ``<chart>-bar-<i>`` and every point ``<chart>-pt-<i>`` (matplotlib writes an
artist's gid as the id of its group), so a page test can count what was drawn. Text stays text
(``svg.fonttype = none``): small files, and the browser's font draws the labels.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.ticker import EngFormatter, MaxNLocator

PALETTE = ("#3b6ea8", "#d9822b", "#4c9a5b", "#b5443b", "#7b5ea7", "#8c6d46", "#c55d9f", "#6b6b6b", "#a8a23b")
_RC: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "ldiv-report",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


@dataclass(frozen=True)
class Chart:
    """One rendered chart: its name, the SVG text and how many bars and points it draws."""

    name: str
    svg: str
    bars: int
    points: int


def _svg(fig: Figure, bottom: float = 0.2) -> str:
    """Fixed margins instead of a tight bounding box: one draw pass instead of two."""
    FigureCanvasSVG(fig)
    fig.subplots_adjust(left=0.13, right=0.97, top=0.88, bottom=bottom)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    # inline in HTML: drop the XML prolog and doctype, keep the <svg> element
    return text[text.index("<svg") :]


def _unique_ids(svg: str, name: str) -> str:
    """Prefix the ids matplotlib numbers per figure (clip paths, glyphs) so several SVGs share a page."""
    return re.sub(r'(id="|url\(#|xlink:href="#)(?!' + re.escape(name) + r"-)", r"\g<1>" + name + "-", svg)


def _big_numbers(ax: Axes, values: Sequence[float]) -> None:
    """Large counts as 240 k / 17.6 M instead of an offset exponent that collides with the title."""
    if max((abs(v) for v in values), default=0) >= 1e5:
        ax.yaxis.set_major_formatter(EngFormatter(sep=" "))


def _integer_axis(ax: Axes, centers: Sequence[float], threshold: float | None) -> None:
    """Integer ticks on a histogram's numeric x axis, one per integer around the bars and the threshold
    (a locator falls back to fractions when the view holds fewer than two integers: one bar)."""
    values = [*centers, *([] if threshold is None else [threshold])]
    if not values:
        return
    lo, hi = math.floor(min(values)) - 1, math.ceil(max(values)) + 1
    if hi - lo > 30:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        return
    ax.set_xticks(range(lo, hi + 1))
    ax.set_xlim(lo - 0.5, hi + 0.5)


def _figure(width: float = 5.6, height: float = 2.6) -> Figure:
    return Figure(figsize=(width, height), dpi=96)


@dataclass(frozen=True)
class Look:
    """How a chart is labelled and drawn: its title and axis labels, the labels rotated, a log value
    axis, integer ticks on the numeric x axis (counts), the bars' colours."""

    title: str
    xlabel: str = ""
    ylabel: str = ""
    rotate: bool = False
    log: bool = False
    integer_x: bool = False
    colors: Sequence[str] | None = None


@dataclass(frozen=True)
class Threshold:
    """A dashed vertical line at ``value`` on the x axis (the model's threshold), named ``label``."""

    value: float
    label: str


@dataclass(frozen=True)
class Histogram:
    """Bars on a numeric axis: bar i covers [xs[i], xs[i] + width)."""

    xs: Sequence[float]
    width: float = 0.8


def bar_chart(
    name: str,
    labels: Sequence[str],
    values: Sequence[float],
    look: Look,
    *,
    threshold: Threshold | None = None,
    bins: Histogram | None = None,
) -> Chart:
    """A bar per label; with ``bins`` the bars stand on a numeric axis (a histogram) and the labels only
    name them. An optional dashed vertical line (id ``<name>-threshold``) marks the model's threshold at
    its value on that axis. Counts get integer ticks: the value axis when every value is an integer, the
    numeric x axis with ``look.integer_x``."""
    xs, width = (bins.xs, bins.width) if bins is not None else (None, 0.8)
    colors, rotate = look.colors, look.rotate
    with rc_context(_RC):  # type: ignore[arg-type]
        fig = _figure()
        ax = fig.add_subplot()
        positions = list(xs) if xs is not None else list(range(len(labels)))
        bars = ax.bar(
            positions,
            values,
            color=list(colors) if colors else PALETTE[0],
            width=width,
            align="edge" if xs is not None else "center",
            edgecolor="white" if xs is not None else None,
            linewidth=0.5,
        )
        for i, b in enumerate(bars):
            b.set_gid(f"{name}-bar-{i}")
        if xs is None:
            ax.set_xticks(
                positions, list(labels), rotation=45 if rotate else 0, ha="right" if rotate else "center"
            )
        if threshold is not None:
            line = ax.axvline(
                threshold.value, color="#b5443b", linestyle="--", linewidth=1.2, label=threshold.label
            )
            line.set_gid(f"{name}-threshold")
            ax.legend(frameon=False, loc="best")
        if look.integer_x:
            _integer_axis(
                ax, [p + width / 2 for p in positions], None if threshold is None else threshold.value
            )
        if look.log:
            ax.set_yscale("log")
        else:
            _big_numbers(ax, values)
            if values and max(values) == 0:
                ax.set_ylim(0, 1)  # all bars zero (e.g. NCP of unchanged QIs): no negative axis
            if all(float(v).is_integer() for v in values):
                ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(look.title, loc="left", fontsize=10)
        ax.set_xlabel(look.xlabel)
        ax.set_ylabel(look.ylabel)
        svg = _unique_ids(_svg(fig, 0.36 if rotate else 0.2), name)
    return Chart(name, svg, len(labels), 0)


def grouped_bars(
    name: str,
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    title: str,
    ylabel: str = "",
) -> Chart:
    """Bars of several series side by side per label (e.g. SA counts in the source and the release)."""
    with rc_context(_RC):  # type: ignore[arg-type]
        fig = _figure(7.2 if len(labels) > 8 else 5.6, 2.9)
        ax = fig.add_subplot()
        width = 0.8 / max(len(series), 1)
        count = 0
        for j, (label, values) in enumerate(series):
            xs = [i + (j - (len(series) - 1) / 2) * width for i in range(len(labels))]
            bars = ax.bar(xs, values, width=width, color=PALETTE[j % len(PALETTE)], label=label)
            for b in bars:
                b.set_gid(f"{name}-bar-{count}")
                count += 1
        if all(float(v).is_integer() for _, values in series for v in values):
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xticks(range(len(labels)), list(labels), rotation=45, ha="right")
        ax.legend(frameon=False, loc="best")
        ax.set_title(title, loc="left", fontsize=10)
        ax.set_ylabel(ylabel)
        svg = _unique_ids(_svg(fig, 0.36), name)
    return Chart(name, svg, count, 0)


def scatter(
    name: str,
    points: Sequence[tuple[str, float, float]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
) -> Chart:
    """One labelled point per (label, x, y): utility against privacy, one colour per algorithm."""
    with rc_context(_RC):  # type: ignore[arg-type]
        fig = _figure(5.6, 3.4)
        ax = fig.add_subplot()
        xr = (max((p[1] for p in points), default=1) - min((p[1] for p in points), default=0)) or 1.0
        yr = (max((p[2] for p in points), default=1) - min((p[2] for p in points), default=0)) or 1.0
        for i, (label, x, y) in enumerate(points):
            pc = ax.scatter([x], [y], s=46, color=PALETTE[i % len(PALETTE)], label=label, zorder=3)
            pc.set_gid(f"{name}-pt-{i}")
            # labels of points that (nearly) coincide are stacked instead of printed over each other
            near = sum(1 for _, px, py in points[:i] if abs(px - x) < 0.06 * xr and abs(py - y) < 0.06 * yr)
            ax.annotate(label, (x, y), textcoords="offset points", xytext=(5, 4 - 11 * near), fontsize=8)
        ax.set_title(title, loc="left", fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(True, linewidth=0.4, alpha=0.5)
        ax.margins(0.15)
        svg = _unique_ids(_svg(fig, 0.16), name)
    return Chart(name, svg, 0, len(points))
