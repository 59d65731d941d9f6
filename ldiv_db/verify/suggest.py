"""The largest feasible l per model, with the reason (``ldiv suggest-l``), and the feasibility check
every anonymize run makes before it starts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.inputs import NO_NULL_OPTION, Inputs, resolve_inputs
from ..db import Database
from ..errors import BadInput
from ..privacy import Distinct, Entropy, Frequency, PrivacyModel, UniqueDistinct
from ..privacy.entropy import TOLERANCE, entropy
from ..sqlgen.render import render


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
        return entropy([c for _, c in self.counts])


def largest_entropy_l(h: float) -> int:
    """The largest l that entropy l-diversity admits at entropy ``h``, by the check's own rule
    (``h >= ln l - TOLERANCE``, SPEC §0.2): ``suggest-l``, the feasibility check and ``check`` agree."""
    l = max(1, math.floor(math.exp(h + TOLERANCE)))
    while h < math.log(l) - TOLERANCE:
        l -= 1
    while h >= math.log(l + 1) - TOLERANCE:
        l += 1
    return l


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
        return self.suggestion_for(model).l

    def suggestion_for(self, model: str) -> Suggestion:
        """The bound that applies to ``model``: its own, else the frequency bound (which every model
        of SPEC §0.2 implies: no group can be l-diverse while one value fills more than 1/l of it)."""
        key = {"lplus": "frequency"}.get(model, model)
        for s in self.suggestions:
            if s.model == key:
                return s
        return min((s for s in self.suggestions if s.model == "frequency"), key=lambda s: s.l)

    def auto_l(self, model: str) -> int:
        """``--l auto``: the largest feasible l for ``model``; refused, with the reason, when that is 1."""
        s = self.suggestion_for(model)
        if s.l < 2:
            raise BadInput(
                f"--l auto: no l >= 2 is feasible for {model} on this table: {s.reason}, so the largest "
                f"feasible l is {s.l}",
                "l-diversity needs at least two well-represented SA values in every group: choose another "
                "SA, or add rows with other SA values",
            )
        return s.l

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
    le = largest_entropy_l(b_e.entropy)
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
    ud = min(freq, m)
    ud_reason = (
        f"⌊n/n1⌋ = ⌊{b_f.n}/{b_f.n1}⌋ (BSGI Cor. 3): a class holds each value at most once, so the n1 rows "
        "of the most frequent value need n1 classes of at least l rows: l·n1 ≤ n"
    )
    if m <= freq:  # no more values than that: a group cannot hold more distinct ones
        ud_reason = f"{b_m.sa} has {m} distinct values; no group can hold more"
    if ud < 2:
        ud_reason += "; no l ≥ 2 is feasible, distinct l-diversity allows repeated values"
    sugg.append(Suggestion("unique-distinct", ud, ud_reason))
    return SuggestResult(bs, sugg)


def suggest_for(db: Any, table: str, sa: str | Sequence[str]) -> SuggestResult:
    """``ldiv_db.suggest_l`` and ``ldiv suggest-l``: ``db`` opened for reading (a path, URL, connection or
    :class:`Database`), the SA(s) of ``table`` resolved, :func:`suggest_l`. Here rather than in the API,
    so that the command imports no algorithm and no report (decision 0023, Round 7)."""
    database = Database.open(db, mode="read")
    try:
        return suggest_l(
            database, resolve_inputs(database, table, None, sa, require_qi=False, null_hint=NO_NULL_OPTION)
        )
    finally:
        if database is not db:
            database.close()


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
        if isinstance(model, Entropy) and l_value > largest_entropy_l(b.entropy):
            raise BadInput(
                f"l = {l_value} is infeasible for entropy l-diversity: the whole table's entropy of {b.sa} is "
                f"ln {math.exp(b.entropy):.4f}",
                f"the largest feasible l is {largest_entropy_l(b.entropy)}",
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
