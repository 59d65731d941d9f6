"""The words, units and number formats of every figure ldiv_db shows about a release: THE one place that
names a count or a metric and formats its value, for the CLI's text, the report and comparison pages
(``docs/concepts/report.md`` explains the same words to users; decision 0011).

The vocabulary of what a release leaves out:

* **rows deleted**: source rows the release does not publish (suppression removed them; ARX calls this
  record suppression, hence ``--suppression-limit``);
* **rows waiting**: source rows a stream (Decomposition+) keeps back for a later release;
* **cells suppressed**: published cells whose value is withheld: a QI cell published as ``*`` (TP's
  Definition 1 stars, or a hierarchy's root ``*``) or an SA cell published as unknown (NULL, l+'s
  vioSA/allSA);
* **rows with suppressed cells**: published rows carrying at least one suppressed cell (TP's
  "suppressed rows", SPEC §0.5).

"Suppressed" is said of cells only; a row is deleted, waiting or published.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

# ------------------------------------------------------------------------------------------ row counts
# key -> (label, what it counts); the pages show "label (what it counts)", the CLI the label
_COUNTS: dict[str, tuple[str, str]] = {
    "rows_in": ("rows in", "rows of the source"),
    "rows_published": ("rows published", "rows of the release"),
    "rows_deleted": ("rows deleted", "not published: removed by suppression"),
    "rows_waiting": ("rows waiting", "kept back for a later release of the stream"),
    "cells_suppressed": ("cells suppressed", "values published as * or unknown"),
    "rows_with_suppressed_cells": ("rows with suppressed cells", "published rows with a * or an unknown SA"),
}
COUNTS: dict[str, str] = {k: f"{label} ({what})" for k, (label, what) in _COUNTS.items()}


# ---------------------------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class Metric:
    """One figure: its label, its unit (``%``: a share in [0, 1] shown as a percentage; ``count``: an
    integer; ``s``: seconds; ``''``: a plain number) and what it means."""

    key: str
    label: str
    unit: str
    help: str

    @property
    def axis(self) -> str:
        """The label of a chart's value axis."""
        return f"{self.label} (%)" if self.unit == "%" else self.label


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        Metric(
            "ncp",
            "NCP",
            "%",
            "information loss per published QI cell: 0 % = the original values, 100 % = every cell fully "
            "generalized (Xu et al. 2006)",
        ),
        Metric("il", "IL", "", "the sum of NCP over every published QI cell (BSGI's information loss)"),
        Metric(
            "lm", "LM", "", "loss metric: Σ per cell of (#leaves − 1)/(|A| − 1), deleted rows count fully"
        ),
        Metric("dm", "DM", "count", "discernibility: Σ|G|² over classes plus |T| per deleted row"),
        Metric("cavg", "CAVG", "", "average class size divided by l; 1 is the ideal"),
        Metric(
            "kl", "KL", "", "KL-divergence (nats) of the release's (QI, SA) distribution from the source's"
        ),
        Metric("stars", "stars", "count", "QI cells published as * (part of the cells suppressed)"),
        Metric("arx_loss", "ARX Loss", "", "ARX's loss metric (geometric mean of the per-attribute loss)"),
        Metric("noise", "noise", "count", "SA values replaced by noise (Decomposition+)"),
        Metric("cm", "CM", "count", "classification metric: rows outside their class's majority"),
        Metric("k", "k", "count", "the smallest class"),
        Metric("classes", "classes", "count", "rows an attacker cannot tell apart form one class"),
        Metric(
            "max_confidence",
            "highest value confidence",
            "",
            "max over classes and SA values of rows with the value / rows of the class",
        ),
        Metric("risk", "re-identification risk", "%", "1/|G| of a row's class"),
        Metric("seconds", "run time", "s", "the whole run, writing and verification included"),
        *(Metric(k, label, "count", what) for k, (label, what) in _COUNTS.items()),
        # ``ldiv metrics``' names of two of the counts
        Metric("rows", "rows published", "count", _COUNTS["rows_published"][1]),
        Metric("deleted_rows", "rows deleted", "count", _COUNTS["rows_deleted"][1]),
    )
}


def metric(key: str) -> Metric:
    return METRICS[key]


def number(x: Any, digits: int = 4) -> str:
    """A plain number for people: thousands separators for integers, ``digits`` significant digits
    for the rest, "n/a" for a missing one."""
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, Fraction):
        x = float(x)
    if isinstance(x, float):
        if x.is_integer() and abs(x) < 1e15:
            return f"{int(x):,}"
        return f"{x:,.{digits}g}" if abs(x) < 1e6 else f"{x:,.0f}"
    return str(x)


def percent(x: Any) -> str:
    """A share in [0, 1] as a percentage with two decimals ("8.46 %")."""
    return "n/a" if x is None else f"{100 * float(x):.2f} %"


def show(key: str, value: Any) -> str:
    """THE text of a figure's value, in its metric's unit (every page and the CLI call this)."""
    m = METRICS.get(key)
    unit = m.unit if m is not None else ""
    if value is None:
        return "n/a"
    if unit == "%":
        return percent(value)
    if unit == "s":
        return f"{float(value):.2f} s"
    if unit == "count":
        return number(int(value))
    return number(value)


def metrics_line(values: Mapping[str, Any], keys: tuple[str, ...]) -> str:
    """``NCP 8.46 %, IL 671.3, ...`` for the keys present (a missing value is "n/a")."""
    return ", ".join(f"{METRICS[k].label} {show(k, values.get(k))}" for k in keys)


# ------------------------------------------------------------------------------------------ the models
def model_phrase(name: str | None, params: Mapping[str, Any] | None) -> str:
    """A privacy model for people: ``recursive (c=3, l=4)``, ``distinct (l=4)``
    (``distinct (l=(4, 3))`` with one l per SA); c first, as the papers name (c,l)."""
    if not name:
        return "(no model)"
    params = dict(params or {})
    if isinstance(params.get("models"), (list, tuple)):  # a combination: each part in its own words
        return " and ".join(model_phrase(m.get("model"), m.get("params")) for m in params["models"])
    params.pop("baseline", None)  # the source's SA counts a distribution model recorded: data, not a knob
    order = [k for k in ("c", "l") if k in params] + [k for k in params if k not in ("c", "l")]
    parts = [f"{k}={_param(params[k])}" for k in order if params[k] is not None]
    return f"{name} ({', '.join(parts)})" if parts else name


def _param(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return _param(value[0]) if len(value) == 1 else "(" + ", ".join(_param(v) for v in value) + ")"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_param(v)}" for k, v in value.items()) + "}"
    return str(value)


def l_of(params: Mapping[str, Any] | None) -> str:
    """The l of a model's parameters as shown ("4", or "(4, 3)" with one per SA; "–" without l)."""
    l = (params or {}).get("l")
    return "–" if l in (None, []) else _param(l)
