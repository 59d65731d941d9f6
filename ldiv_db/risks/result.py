"""The result of ``ldiv risk``: every figure with its value, formula, assumption and paper (the list
:meth:`RiskResult.figures` is what the text output, the JSON and the report's risk section show)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import figures
from .estimators import Estimates
from .figures import DEFINITIONS, Risks


@dataclass(frozen=True)
class PopulationFacts:
    """What is known of the population: its size N (None: not given), where N comes from, the estimates
    (None: N not above the data's size) and a population table's own frequency-of-frequencies."""

    size: float | None
    source: str
    estimates: Estimates | None
    table_fof: dict[int, int] | None


@dataclass(frozen=True)
class Figure:
    key: str
    value: Fraction | float | int | None
    note: str | None = None  # why there is no value, or which model Dankar's rule chose

    def to_dict(self) -> dict[str, Any]:
        d = DEFINITIONS[self.key.split(":")[0]]
        v = self.value
        return {
            "key": self.key,
            "label": d.label,
            "value": None if v is None else (v if isinstance(v, int) else float(v)),
            "exact": str(v) if isinstance(v, Fraction) else None,
            "formula": d.formula,
            "assumption": d.assumption,
            "ref": d.ref,
            "note": self.note,
        }


@dataclass(frozen=True)
class RiskResult:
    table: str
    partition: str
    qi: list[str]
    rows: int
    threshold: Fraction
    fof: dict[int, int]
    without: list[dict[int, int]]
    pairs: dict[tuple[int, int], int] | None
    population: PopulationFacts
    rows_out: str | None
    prosecutor: Risks

    @property
    def classes(self) -> int:
        return sum(self.fof.values())

    @property
    def journalist(self) -> Risks:
        """Against the population table; without one, its upper bound, the prosecutor's figures."""
        return self.prosecutor if self.pairs is None else figures.journalist(self.pairs, self.threshold)

    @property
    def marketer(self) -> Fraction:
        return self.journalist.average

    @property
    def sample_uniques(self) -> int:
        return figures.sample_uniques(self.fof)

    @property
    def contributions(self) -> list[tuple[str, int]]:
        return list(zip(self.qi, figures.qi_contribution(self.fof, self.without), strict=True))

    def figures(self) -> list[Figure]:
        n = self.rows
        p, j = self.prosecutor, self.journalist
        bound = (
            None if self.pairs is not None else "no population table: the prosecutor's figure, an upper bound"
        )
        out = [
            Figure("prosecutor_highest", p.highest),
            Figure("prosecutor_average", p.average),
            Figure("prosecutor_above", p.above),
            Figure("journalist_highest", j.highest, bound),
            Figure("journalist_average", j.average, bound),
            Figure("journalist_above", j.above, bound),
            Figure(
                "marketer", self.marketer, None if self.pairs is not None else "against the data set itself"
            ),
            Figure("sample_uniques", Fraction(self.sample_uniques, n)),
        ]
        out += self._population_figures()
        out += [Figure(f"qi_contribution:{q}", Fraction(k, n)) for q, k in self.contributions]
        return out

    def _population_figures(self) -> list[Figure]:
        pop = self.population
        out: list[Figure] = []
        if pop.table_fof is not None and pop.size:
            out.append(Figure("population_uniques", Fraction(pop.table_fof.get(1, 0), int(pop.size))))
        est = pop.estimates
        if est is None:
            why = (
                "no population size: give --population N, --sampling-fraction f or --population-table P"
                if pop.size is None
                else "the population is the data set: population uniques = sample uniques"
            )
            return [*out, *(Figure(k, None, why) for k in ("pitman", "zayatz", "snb", "dankar"))]
        size = float(pop.size or 0)
        for key in ("pitman", "zayatz", "snb"):
            u = getattr(est, key)
            out.append(
                Figure(
                    key,
                    None if u is None else u / size,
                    None if u is not None else "no estimate: the model does not fit",
                )
            )
        d = est.dankar
        out.append(
            Figure(
                "dankar",
                None if d is None else d / size,
                f"chose {est.chosen}" if est.chosen else "no model fits",
            )
        )
        return out

    def to_dict(self) -> dict[str, Any]:
        pop = self.population
        return {
            "table": self.table,
            "partition": self.partition,
            "qi": self.qi,
            "rows": self.rows,
            "classes": self.classes,
            "threshold": float(self.threshold),
            "population": {
                "size": pop.size,
                "source": pop.source,
                "sampling_fraction": None if not pop.size else self.rows / pop.size,
                "dankar_model": None if pop.estimates is None else pop.estimates.chosen,
            },
            "sample_uniques": self.sample_uniques,
            "qi_contribution": [{"qi": q, "uniques_removed": k} for q, k in self.contributions],
            "frequencies": [{"size": s, "classes": c} for s, c in sorted(self.fof.items())],
            "rows_out": self.rows_out,
            "figures": [f.to_dict() for f in self.figures()],
        }

    def render_text(self) -> str:
        lines = [
            f"risk of {self.table}: {self.rows:,} rows in {self.classes:,} classes (by {self.partition})",
            f"threshold {float(self.threshold):g}; population: {self._population_line()}",
        ]
        explained: set[str] = set()
        for f in self.figures():
            d = f.to_dict()
            label = d["label"] + (f" [{f.key.split(':', 1)[1]}]" if ":" in f.key else "")
            value = "n/a" if d["value"] is None else f"{float(d['value']):.5f}"
            note = f"  ({d['note']})" if d["note"] else ""
            lines.append(f"  {label:<58} {value}{note}")
            if f.key.split(":")[0] not in explained:  # the per-QI figures share one definition
                explained.add(f.key.split(":")[0])
                lines.append(f"      = {d['formula']}; assumes {d['assumption']} [{d['ref']}]")
        if self.rows_out:
            lines.append(f"per-row risk written to {self.rows_out}")
        return "\n".join(lines)

    def _population_line(self) -> str:
        pop = self.population
        if pop.size is None:
            return "not given (the data set stands for it)"
        return f"N = {pop.size:,.0f} ({pop.source}), sampling fraction {self.rows / pop.size:.5g}"
