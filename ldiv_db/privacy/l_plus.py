"""l+-diversity (Liu & Wang, SPEC §5.1): a threshold θ_s per SA value; a value is violated in G iff
G(s) > θ_s·|G|, compared exactly. Thresholds: an explicit map, uniform 1/l, or derived from the value's
frequency (``sensitivity``: θ_s = θ if fr(s) ≤ |T|/m, else θ·fr(s)/(|T|/m), capped at 1)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.options import exact
from ..errors import BadInput
from ..sqlgen.render import render
from ..util.lazy import library
from .base import PrivacyModel, sql_text

if TYPE_CHECKING:
    import pandas as pd

    from ..core.evaluator import SqlEvaluator
    from ..sqlgen.render import TableRef
else:
    pd = library("pandas")


def sensitivity_thresholds(counts: Mapping[str | None, int], theta: Fraction) -> dict[str | None, Fraction]:
    """SPEC §5.1: θ_i = θ when fr(s_i) ≤ fr_avg = |T|/m, else θ·fr(s_i)/fr_avg, capped at 1."""
    total = sum(counts.values())
    m = len(counts)
    out = {}
    for v, fr in counts.items():
        # fr ≤ total/m  <=>  fr·m ≤ total
        out[v] = theta if fr * m <= total else min(Fraction(1), theta * Fraction(fr * m, total))
    return out


class LPlus(PrivacyModel):
    name = "lplus"

    def __init__(
        self,
        ls: tuple[int, ...] | None,
        thresholds: Mapping[Any, Any] | None = None,
        sensitivity: bool = False,
    ) -> None:
        self.ls = ls or ()
        self.explicit = {sql_text(k): exact(v, f"threshold of {k!r}") for k, v in (thresholds or {}).items()}
        for v, th in self.explicit.items():
            if not 0 <= th <= 1:
                raise BadInput(f"threshold of {v!r} is {th}, outside [0, 1]")
        self.sensitivity = sensitivity
        if not self.ls and not self.explicit:
            raise BadInput(
                "the lplus model needs --l (θ = 1/l for every value) or --thresholds",
                "give --l 3, or --thresholds Flu=0.5,HIV=1/4 (add --sensitivity with --l for derived thresholds)",
            )
        if sensitivity and not self.ls:
            raise BadInput("sensitivity-based thresholds need a base θ = 1/l", "give --l, e.g. --l 3")
        if self.explicit and len(self.ls) > 1:
            raise BadInput("explicit thresholds apply to one sensitive attribute", "check one SA at a time")
        self._theta: dict[tuple[int, str | None], Fraction] | None = None

    def base(self, s: int) -> Fraction:
        return Fraction(1, self.ls[s - 1]) if self.ls else Fraction(1)

    def resolve(
        self, value_counts: Mapping[int, list[tuple[str | None, int]]]
    ) -> dict[tuple[int, str | None], Fraction]:
        """Fix θ for every (SA, value); sensitivity thresholds use these table frequencies."""
        theta: dict[tuple[int, str | None], Fraction] = {}
        for s, pairs in value_counts.items():
            if self.sensitivity:
                derived = sensitivity_thresholds(dict(pairs), self.base(s))
            else:
                derived = {v: self.explicit.get(v, self.base(s)) for v, _ in pairs}
            theta.update({(s, v): th for v, th in derived.items()})
        self._theta = theta
        return theta

    def fixed(self, value_counts: Callable[[], Mapping[int, list[tuple[str | None, int]]]]) -> PrivacyModel:
        """Sensitivity thresholds follow the value frequencies of the source T (SPEC §5.1), which differ
        from a release's where rows were deleted: the release is verified and recorded with the θ they
        give, as explicit thresholds (one SA; the algorithm's own θ where it resolved them)."""
        if not self.sensitivity or len(self.ls) != 1:
            return self
        theta = self._theta if self._theta is not None else self.resolve(value_counts())
        return LPlus(self.ls, {v: th for (s, v), th in theta.items() if s == 1})

    def theta(self, s: int, v: str | None) -> Fraction:
        if self._theta is not None and (s, v) in self._theta:
            return self._theta[(s, v)]
        return self.explicit.get(v, self.base(s))

    def thresholds_table(self, ev: SqlEvaluator) -> TableRef:
        if self._theta is None:
            self.resolve(ev.value_counts())
        assert self._theta is not None
        target = ev.work("thresholds")
        ev.db.run(render("privacy/value_table.sql", target=target))
        frame = pd.DataFrame(
            [(s, v, th.numerator, th.denominator) for (s, v), th in self._theta.items()],
            columns=["s", "v", "p", "q"],
        )
        if len(frame):
            ev.db.insert_frame(target, frame)
        return target

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        table = self.thresholds_table(ev)
        ev.db.run(
            render(
                "privacy/lplus.sql",
                {"p_default": 1, "q_default": 1},
                target=target,
                hist=ev.hist,
                stats=ev.stats,
                thresholds=table,
            )
        )

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        size = sum(counts.values())
        return all(n <= self.theta(s, sql_text(v)) * size for v, n in counts.items())

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.ls:
            out["l"] = list(self.ls)
        if self.explicit:
            # None is the NULL value (--null-as-value); shown so, not as the text 'None'
            out["thresholds"] = {"NULL" if v is None else str(v): str(th) for v, th in self.explicit.items()}
        if self.sensitivity:
            out["sensitivity"] = True
        return out
