"""What the distribution models (t-closeness, δ-disclosure, β-likeness) share: each compares a class's SA
distribution with a baseline, the SA distribution of the whole input — suppressed rows included, the
reference tool's convention, so that a release is judged against the table it was made from, not
against the rows it kept (docs/decisions/0014-distribution-models.md).

:class:`DistributionModel` holds the baseline per SA (values in the distance's order, with their rows),
resolved from the evaluated table or fixed from the source (:meth:`PrivacyModel.fixed`), writes it into a
work table for the SQL verdicts, and judges count matrices in numpy for the algorithms (exact integers:
object arrays where int64 could overflow)."""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import BadInput
from ..sqlgen.render import render
from ..util.lazy import library
from ..util.words import model_phrase
from .base import PrivacyModel, sql_text
from .combined import AllOf

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from ..core.evaluator import SqlEvaluator
    from ..db import Database
    from ..sqlgen.render import TableRef
else:
    np = library("numpy")
    pd = library("pandas")

Pairs = Sequence[tuple[str | None, int]]  # (value, rows), the baseline of one SA
ValueCounts = Mapping[int, Pairs]  # per SA (1-based)


@dataclass(frozen=True)
class Largest:
    """The largest measure over the classes (the largest t, δ or β): as a float, and exactly where the
    measure is a fraction (t, β); ``value`` is inf where some class has an infinite measure."""

    value: float | None
    exact: Fraction | None

    def to_dict(self) -> dict[str, Any]:
        v = self.value
        return {
            "value": None if v is None else (str(v) if math.isinf(v) else v),
            "exact": None if self.exact is None else str(self.exact),
        }


def int_matrix(a: np.ndarray, bound: int) -> np.ndarray:
    """``a`` as int64 where every product below ``bound`` fits, else as Python integers (exact)."""
    return a.astype(np.int64) if bound < 2**62 else a.astype(object)


class DistributionModel(PrivacyModel):
    """A model comparing each class's SA distribution with the baseline (one baseline per SA)."""

    per_part = False  # the baseline is the whole table's: a part of the groups cannot derive it
    template = ""
    reads_stats = False  # the template reads the group statistics (ev.stats) too
    # two classes that pass merge into one that passes: a mixture's distance to the baseline (EMD), its
    # log ratios and its relative gains lie within its parts'. The search over a lattice reads this.
    union_closed = True

    def __init__(self, n_sa: int, baseline: ValueCounts | None = None) -> None:
        self.n_sa = n_sa
        self._baseline: dict[int, list[tuple[str | None, int]]] | None = (
            None
            if baseline is None
            else {int(s): [(sql_text(v), int(n)) for v, n in p] for s, p in baseline.items()}
        )
        self.explicit = baseline is not None  # fixed from the source (a release's verification)
        self._memo: dict[tuple[int, str], tuple[object, Any]] = {}

    # ------------------------------------------------------------------ the baseline
    def order(self, s: int, pairs: Pairs) -> list[tuple[str | None, int]]:
        """The baseline's values in the order the measure needs (by default the values' own order)."""
        return sorted(pairs, key=lambda p: (p[0] is None, p[0] or ""))

    def prepare(self, db: Database) -> None:
        """Load what the model reads besides the counts (the SA hierarchy of the hierarchical distance)."""
        return None

    def resolve(self, value_counts: ValueCounts) -> dict[int, list[tuple[str | None, int]]]:
        """The baseline per SA: the explicit one, else ``value_counts`` (the evaluated table's)."""
        if self._baseline is None:
            self._baseline = {s: self.order(s, pairs) for s, pairs in value_counts.items()}
        return self._baseline

    def baseline(self, s: int) -> list[tuple[str | None, int]]:
        assert self._baseline is not None, "resolve the baseline first"
        return self._baseline.get(s, [])

    def fixed(self, value_counts: Callable[[], ValueCounts]) -> PrivacyModel:
        """The baseline is the source's SA distribution (suppressed rows included): a release is verified
        and recorded with it explicit, since its own distribution lacks the deleted rows."""
        if self.explicit:
            return self
        return self.with_baseline({s: self.order(s, p) for s, p in value_counts().items()})

    @abstractmethod
    def with_baseline(self, baseline: ValueCounts) -> DistributionModel:
        """This model with an explicit baseline."""

    def baseline_table(self, ev: SqlEvaluator) -> TableRef:
        self.prepare(ev.db)
        self.resolve(ev.value_counts())
        target = ev.work("baseline")
        ev.db.run(render("privacy/baseline_table.sql", target=target))
        rows = [
            (s, v, n, r, pt)
            for s in range(1, self.n_sa + 1)
            for r, ((v, n), pt) in enumerate(zip(self.baseline(s), self.points(s), strict=True), 1)
        ]
        if rows:
            ev.db.insert_frame(target, pd.DataFrame(rows, columns=["s", "v", "n", "r", "pt"]))
        return target

    def points(self, s: int) -> list[int]:
        """Per baseline value v, a class holding v alone measured against the baseline, as the numerator
        of the template's fraction per row of the class (0 where the template does not read it)."""
        return [0] * len(self.baseline(s))

    def template_params(self) -> dict[str, Any]:
        return {}

    def template_context(self, ev: SqlEvaluator) -> dict[str, Any]:
        return {}

    def apply(self, ev: SqlEvaluator, target: TableRef) -> None:
        baseline = self.baseline_table(ev)
        ctx = {"hist": ev.hist, "baseline": baseline, "one_sa": len(ev.sa) == 1, **self.template_context(ev)}
        if self.reads_stats:
            ctx["stats"] = ev.stats
        ev.db.run(render(self.template_name(), self.template_params(), target=target, **ctx))

    def template_name(self) -> str:
        return self.template

    def largest(self, ev: SqlEvaluator, verdict: TableRef) -> Largest:
        """The largest measure over the classes, read from the verdict table ``apply`` wrote."""
        rec = ev.db.records(render("privacy/largest.sql", verdict=verdict))
        if not rec or rec[0]["top"] is None:
            return Largest(None, None)
        top = float(rec[0]["top"])
        if math.isinf(top) or not rec[0]["nums"]:
            return Largest(top, None)
        exact = max(Fraction(int(a), int(b)) for a, b in zip(rec[0]["nums"], rec[0]["dens"], strict=True))
        return Largest(float(exact), exact)

    # ------------------------------------------------------------------ numpy / Python
    def memo(self, s: int, what: str, make: Callable[[list[tuple[str | None, int]]], Any]) -> Any:
        """``make(baseline of SA s)``, made once per baseline: a class test reads it per class (top-down
        asks thousands), and each is O(M) to make. Kept while the baseline list is the same object."""
        pairs = self.baseline(s)
        hit = self._memo.get((s, what))
        if hit is not None and hit[0] is pairs:
            return hit[1]
        value = make(pairs)
        self._memo[(s, what)] = (pairs, value)
        return value

    def index(self, s: int) -> dict[str | None, int]:
        """Each baseline value's column (its position in the baseline's order)."""
        out: dict[str | None, int] = self.memo(
            s, "index", lambda pairs: {v: i for i, (v, _) in enumerate(pairs)}
        )
        return out

    def matrix(self, s: int, counts: Mapping[Any, int]) -> np.ndarray:
        """One class's counts as a 1 × M row over the baseline's values; a value the baseline lacks
        raises KeyError (the caller fails the class)."""
        index = self.index(s)
        row = np.zeros((1, len(index)), dtype=np.int64)
        for v, n in counts.items():
            if n > 0:
                row[0, index[sql_text(v)]] += n
        return row

    @abstractmethod
    def rows_ok(self, s: int, counts: np.ndarray) -> np.ndarray:
        """Per row of ``counts`` (classes × the baseline's values of SA ``s``, in its order): the verdict.
        A row without any rows fails."""

    def cells_ok(
        self, s: int, group: np.ndarray, value: np.ndarray, n: np.ndarray, n_groups: int
    ) -> np.ndarray | None:
        """:meth:`rows_ok` of the count matrix whose non-zero cells are (``group``, ``value`` in the
        baseline's order, ``n``), read from the cells alone, the same verdict per group; None where the
        model has no such form (the caller then builds the matrix)."""
        return None

    def removals_ok(self, s: int, row: np.ndarray, at: np.ndarray) -> np.ndarray | None:
        """:meth:`rows_ok` of the rows ``row`` less one at column ``at[i]`` (each ``row[at[i]]`` ≥ 1), the
        same verdicts, without building them; None where the model has no such form."""
        return None

    def cell_diff(
        self, s: int, group: np.ndarray, value: np.ndarray, n: np.ndarray, n_groups: int, factor: int = 1
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int] | None:
        """:meth:`diff` on the cells: (D per cell, m per group, the cells' N_v·m, B, N) in int64, the values
        :meth:`diff` gives those cells; None where it would need Python integers. |D| ≤ N·m ≤ N² per cell
        and a class's Σ|D| ≤ 2·N·m, so int64 holds every product of them with ``factor`` below 2^62 / 4N²
        (the matrix's bound also counts the values, for its sums over every column)."""
        b, big_n = self.totals(s)
        if 4 * max(big_n, 1) ** 2 * max(factor, 1) >= 2**62:
            return None
        m = np.bincount(group, weights=n, minlength=n_groups).astype(np.int64)
        base = b[value] * m[group]
        return n.astype(np.int64) * big_n - base, m, base, b, big_n

    def group_ok(self, counts: Mapping[str, int], s: int = 1) -> bool:
        if self._baseline is None:
            raise BadInput(f"{self.name} needs the baseline distribution before judging a class")
        index = self.index(s)
        held: dict[int, int] = {}
        for v, n in counts.items():
            if n > 0:
                at = index.get(sql_text(v))
                if at is None:  # a value the baseline lacks fails the class
                    return False
                held[at] = held.get(at, 0) + n
        if held:  # from the class's own cells (O(its values), not O(M)) where the model has that form
            cols = np.fromiter(held, dtype=np.int64, count=len(held))
            ns = np.fromiter(held.values(), dtype=np.int64, count=len(held))
            got = self.cells_ok(s, np.zeros(len(held), dtype=np.int64), cols, ns, 1)
            if got is not None:
                return bool(got[0])
        return bool(self.rows_ok(s, self.matrix(s, counts))[0])

    def totals(self, s: int) -> tuple[np.ndarray, int]:
        def make(pairs: list[tuple[str | None, int]]) -> tuple[np.ndarray, int]:
            b = np.array([n for _, n in pairs], dtype=np.int64)
            b.setflags(write=False)  # shared by every call
            return b, int(b.sum())

        out: tuple[np.ndarray, int] = self.memo(s, "totals", make)
        return out

    def diff(
        self, s: int, counts: np.ndarray, factor: int = 1
    ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
        """(D, m, N, B): D = n_v·N − N_v·m per class and value (exact), m the class sizes, N the baseline's
        rows, B its counts; int64 where sums of D times ``factor`` (a threshold's numerator or
        denominator, a tree's height) fit, else Python integers."""
        b, big_n = self.totals(s)
        m = counts.sum(axis=1)
        bound = 4 * max(big_n, 1) ** 2 * max(counts.shape[1], 1) ** 2 * max(factor, 1)
        c, bb, mm = int_matrix(counts, bound), int_matrix(b, bound), int_matrix(m, bound)
        return c * big_n - bb[None, :] * mm[:, None], mm, big_n, bb

    def params(self) -> dict[str, Any]:
        out = self.own_params()
        if self.explicit and self._baseline is not None:
            out["baseline"] = {str(s): [[v, n] for v, n in pairs] for s, pairs in self._baseline.items()}
        return out

    @abstractmethod
    def own_params(self) -> dict[str, Any]:
        """The user's parameters (t, δ, β and their options)."""

    def describe(self) -> str:
        return model_phrase(self.name, self.own_params())


def explicit_baseline(params: Mapping[str, Any]) -> dict[int, list[tuple[str | None, int]]] | None:
    """A recorded baseline (``params()['baseline']``) back as value counts per SA."""
    raw = params.get("baseline")
    if not isinstance(raw, Mapping):
        return None
    return {int(s): [(None if v is None else str(v), int(n)) for v, n in pairs] for s, pairs in raw.items()}


def recorded_params(verification: Mapping[str, Any] | None, name: str) -> Mapping[str, Any] | None:
    """The parameters a release's verification recorded for the model ``name`` on its finest partition
    (alone, or as a part of a combination)."""
    parts = (verification or {}).get("partitions") or []
    if not parts:
        return None
    params = parts[0].get("params") or {}
    if parts[0].get("model") == name:
        return dict(params)
    for p in params.get("models") or []:
        if p.get("model") == name:
            return dict(p.get("params") or {})
    return None


def on_release(
    model: PrivacyModel, verification: Mapping[str, Any] | None, source: Callable[[], ValueCounts]
) -> PrivacyModel:
    """``model`` as a check of a recorded release applies it: each distribution model against the
    baseline its verification recorded, else against the source's SA distribution (``source``), never
    against the release's own rows, which lack the deleted ones."""

    if isinstance(model, AllOf):
        return AllOf([on_release(p, verification, source) for p in model.parts])
    if not isinstance(model, DistributionModel) or model.explicit:
        return model
    recorded = explicit_baseline(recorded_params(verification, model.name) or {})
    return model.with_baseline(recorded if recorded is not None else source())
