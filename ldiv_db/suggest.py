"""The largest feasible l per model, with the reason (``ldiv suggest-l``), and the feasibility check
every anonymize run makes before it starts."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .db import Database
from .errors import BadInput
from .inputs import Inputs
from .privacy import Distinct, Entropy, Frequency, PrivacyModel, UniqueDistinct
from .render import render


@dataclass(frozen=True)
class Buckets:
    """One SA's value counts over the whole table."""

    sa: str
    n: int
    counts: tuple[tuple[str, int], ...]

    @property
    def m(self) -> int:
        return len(self.counts)

    @property
    def n1(self) -> int:
        return self.counts[0][1] if self.counts else 0

    @property
    def top(self) -> str:
        return self.counts[0][0] if self.counts else ""

    @property
    def entropy(self) -> float:
        return math.log(self.n) - sum(c * math.log(c) for _, c in self.counts) / self.n if self.n else 0.0


@dataclass(frozen=True)
class Suggestion:
    model: str
    l: int
    reason: str


@dataclass(frozen=True)
class SuggestResult:
    sa: list[Buckets]
    suggestions: list[Suggestion]

    def best_for(self, model: str) -> int:
        key = {"lplus": "frequency"}.get(model, model)
        for s in self.suggestions:
            if s.model == key:
                return s.l
        return min(s.l for s in self.suggestions if s.model == "frequency")

    def to_dict(self) -> dict[str, object]:
        return {
            "sa": [
                {"name": b.sa, "rows": b.n, "values": b.m, "n1": b.n1, "most_frequent": b.top}
                for b in self.sa
            ],
            "suggestions": [{"model": s.model, "l": s.l, "reason": s.reason} for s in self.suggestions],
        }

    def render_text(self) -> str:
        lines = []
        for b in self.sa:
            lines.append(f"SA {b.sa}: {b.n} rows, {b.m} values, largest bucket {b.top!r} with {b.n1} rows")
        width = max(len(s.model) for s in self.suggestions)
        for s in self.suggestions:
            lines.append(f"  {s.model:<{width}}  l = {s.l:<3} {s.reason}")
        return "\n".join(lines)


def buckets(db: Database, inputs: Inputs) -> list[Buckets]:
    out = []
    for col in inputs.sa:
        rows = db.rows(render("catalog/sa_counts.sql", source=inputs.table.ref, sa=col.ident))
        pairs = tuple((str(v), int(n)) for v, n in rows)
        out.append(Buckets(col.name, sum(n for _, n in pairs), pairs))
    return out


def suggest_l(db: Database, inputs: Inputs) -> SuggestResult:
    bs = buckets(db, inputs)
    sugg: list[Suggestion] = []
    m = min(b.m for b in bs)
    b_m = min(bs, key=lambda b: b.m)
    sugg.append(Suggestion("distinct", m, f"{b_m.sa} has {m} distinct values; no group can hold more"))
    b_e = min(bs, key=lambda b: b.entropy)
    le = max(1, math.floor(math.exp(b_e.entropy) + 1e-12))
    sugg.append(
        Suggestion(
            "entropy",
            le,
            f"the whole table's entropy of {b_e.sa} is ln {math.exp(b_e.entropy):.4f}; every partition's "
            "minimum group entropy is at most that",
        )
    )
    freq = min(b.n // b.n1 for b in bs)
    b_f = min(bs, key=lambda b: b.n // b.n1)
    sugg.append(
        Suggestion(
            "frequency",
            freq,
            f"⌊n/n1⌋ = ⌊{b_f.n}/{b_f.n1}⌋ ({b_f.top!r} is the most frequent value of {b_f.sa}); "
            "an l-eligible partition needs l·n1 ≤ n",
        )
    )
    sugg.append(
        Suggestion(
            "unique-distinct",
            min(freq, m),
            f"⌊n/n1⌋ = ⌊{b_f.n}/{b_f.n1}⌋ (BSGI Cor. 3): a class holds each value at most once, so the n1 rows "
            "of the most frequent value need n1 classes of at least l rows: l·n1 ≤ n"
            + ("; no l ≥ 2 is feasible, distinct l-diversity allows repeated values" if freq < 2 else ""),
        )
    )
    return SuggestResult(bs, sugg)


def check_feasible(db: Database, inputs: Inputs, model: PrivacyModel) -> None:
    """Refuse an l no partition can satisfy, naming the largest feasible l and why."""
    if not isinstance(model, (Distinct, Entropy, Frequency, UniqueDistinct)) or not model.ls:
        return
    bs = buckets(db, inputs)
    for b, l_value in zip(bs, model.ls, strict=True):
        if isinstance(model, (Distinct, UniqueDistinct)) and l_value > b.m:
            raise BadInput(
                f"l = {l_value} is infeasible: {b.sa} has only {b.m} distinct values",
                f"the largest feasible l for {model.name} is {b.m}",
            )
        if isinstance(model, Entropy) and math.log(l_value) > b.entropy + 1e-12:
            raise BadInput(
                f"l = {l_value} is infeasible for entropy l-diversity: the whole table's entropy of {b.sa} is "
                f"ln {math.exp(b.entropy):.4f}",
                f"the largest feasible l is {max(1, math.floor(math.exp(b.entropy) + 1e-12))}",
            )
        if isinstance(model, UniqueDistinct) and l_value * b.n1 > b.n:
            raise BadInput(
                f"l = {l_value} is infeasible for unique-distinct: {b.sa} = {b.top!r} holds {b.n1} of {b.n} rows, "
                f"and a class holds each value at most once, so {b.n1} classes of at least {l_value} rows "
                f"would need {b.n1 * l_value} rows (BSGI Cor. 3: l·n1 ≤ n)",
                f"the largest feasible l for unique-distinct is ⌊n/n1⌋ = {b.n // b.n1}; or ask for the weaker "
                "model by name: --model distinct (classes of at least l distinct values, values may repeat)",
            )
        if isinstance(model, Frequency) and l_value * b.n1 > b.n:
            raise BadInput(
                f"l = {l_value} is infeasible: {b.sa} = {b.top!r} holds {b.n1} of {b.n} rows, more than n/l = "
                f"{b.n / l_value:.1f}",
                f"the largest feasible l is ⌊n/n1⌋ = {b.n // b.n1}",
            )
