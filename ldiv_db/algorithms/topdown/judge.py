"""The judges of top-down specialization: a node's verdict and the repair of a failing parent (SPEC §3.3).

A round's candidate children, and a parent under repair, are judged by the model's own group test on
their SA value counts: the definitions of ``ldiv_db/privacy`` (SPEC §0.2, §3.2), which ``ldiv check``
applies in SQL to the written release. :class:`PlainJudge` is ``group_ok`` of the plain models
(distinct, entropy, recursive, frequency, k-anonymity) itself; :class:`AlphaJudge` is ``LAlpha.group_ok``
in integer arithmetic for the hot loops (a unit test holds the two equal). Both also answer which values
a child can spare (``spare``) and rank the rows that repair may take (``key``).

Repair key [D]. (l,α) models, SPEC §3.3: an SA value new to the parent first, then the larger weight,
then the largest row id (this reproduces the paper's Table 8). The plain models weigh every value alike,
so the weight drops out, and "new to the parent" becomes "fewest rows in the parent" (a new value has
none): each of these models prefers a parent whose counts are spread — entropy and the recursive test
gain most from its rarest value, frequency l-diversity from any value but the most frequent, distinct
l-diversity from a new one — then the largest row id.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import numpy.typing as npt

from ...errors import BadInput
from ...privacy import Distinct, Entropy, Frequency, KAnonymity, LAlpha, PrivacyModel, Recursive
from ...privacy.base import sql_text
from ...privacy.baseline import DistributionModel
from ...privacy.entropy import TOLERANCE, entropy

Counts = Mapping[str | None, int]  # SA value (None: NULL with --null-as-value) -> rows
PLAIN = (Distinct, Entropy, Recursive, Frequency, KAnonymity)
PLAIN_NAMES = "distinct, entropy, recursive (--c), frequency or k-anonymity (--k)"


class RowStack:
    """One SA value's row ids of a candidate child, held as a numpy array (a child of a million-row run
    holds up to a million of them, which as Python ints cost ~10× the memory); repair takes the largest
    from the end. ``ids`` is ascending, or :meth:`sort` makes it so."""

    __slots__ = ("end", "ids")

    def __init__(self, ids: npt.NDArray[np.int64]) -> None:
        self.ids, self.end = ids, len(ids)

    def sort(self) -> None:
        self.ids = np.sort(self.ids[: self.end])

    def __getitem__(self, i: int) -> int:
        if i != -1:
            raise IndexError("a RowStack gives its last row id only")
        return int(self.ids[self.end - 1])

    def pop(self) -> int:
        self.end -= 1
        return int(self.ids[self.end])

    def __len__(self) -> int:
        return self.end


@dataclass
class Child:
    """A candidate child of a node: its verdict, its count per SA value and, for the nodes that may need
    a repair, its row ids per SA value."""

    label: str | None  # None: the NULL value of the attribute (with --null-as-value), a child of the root
    ok: bool
    n: dict[str | None, int] = field(default_factory=dict)
    rows: dict[str | None, list[int] | RowStack] = field(default_factory=dict)

    def counts(self) -> dict[str | None, int]:
        return {v: c for v, c in self.n.items() if c}

    def size(self) -> int:
        return sum(self.n.values())


class Judge(ABC):
    """The model's group test on one node's SA value counts, with what repair asks of it."""

    model: PrivacyModel

    @abstractmethod
    def ok(self, counts: Counts) -> bool:
        """The model's verdict on a group with these counts (zero counts are ignored)."""

    @abstractmethod
    def spare(self, counts: Counts) -> list[str | None]:
        """The values v for which ``ok(counts − one row of v)`` holds, in ``counts`` order."""

    @abstractmethod
    def key(self, v: str | None, in_parent: int) -> tuple[int, ...]:
        """How much moving a row of value v helps a parent holding ``in_parent`` rows of v (larger first);
        repair breaks ties by the largest row id."""

    def admit(self, values: list[str | None]) -> None:
        """Refuse SA values the model cannot judge (a BadInput), before the search starts."""
        return None

    def set_baseline(self, whole: Counts) -> None:
        """The whole table's SA counts, which the distribution models compare every class with."""
        return None

    def hint(self) -> str:
        """How to relax the model when the whole table fails it."""
        if isinstance(self.model, Recursive):
            return "lower --l or raise --c"
        return "lower --l" if self.model.ls else "lower --k"


class AlphaJudge(Judge):
    """``LAlpha.group_ok`` (SPEC §3.2) for the hot loops: integer weights over a common denominator,
    no per-call validation (the SA values were checked against the categories by :meth:`admit`)."""

    model: LAlpha

    def __init__(self, model: LAlpha) -> None:
        self.model = model
        self.den, num = model.scaled_weights()
        # None is the NULL SA value (with --null-as-value): it needs a category like any other value
        self.w = {v: num[r] for v, r in model.categories.items()}
        self.l = model.ls[0]
        self.a_num, self.a_den = model.alpha.numerator, model.alpha.denominator
        self.cat = dict(model.categories)
        self.ln_l = math.log(self.l)

    def weight(self, v: str | None) -> int:
        return self.w[v]

    def key(self, v: str | None, in_parent: int) -> tuple[int, ...]:
        return (in_parent == 0, self.w[v])

    def admit(self, values: list[str | None]) -> None:
        """Every SA value needs a sensitivity category: ``LAlpha.group_ok`` refuses one that has none."""
        self.model.group_ok(cast("Mapping[str, int]", dict.fromkeys(values, 1)))

    def hint(self) -> str:
        return "lower --l or --alpha, or check the categories"

    def ok(self, counts: Counts) -> bool:
        present = [(v, n) for v, n in counts.items() if n > 0]
        if len(present) < self.l:
            return False
        total = sum(n * self.w[v] for v, n in present)
        if total * self.a_den < self.a_num * self.den:
            return False
        variant = self.model.variant
        if variant == "distinct":
            return True
        if variant == "entropy" and self.model.entropy_over == "values":
            units = [n for _, n in present]
        else:
            by_cat: dict[int, int] = {}
            for v, n in present:
                by_cat[self.cat[v]] = by_cat.get(self.cat[v], 0) + n
            units = list(by_cat.values())
        return self._units_ok(units)

    def _units_ok(self, units: list[int]) -> bool:
        """The entropy or recursive test on the units (category or value counts, all > 0)."""
        if self.model.variant == "entropy":
            return entropy(units) >= self.ln_l - TOLERANCE
        c = self.model.c
        assert c is not None
        r = sorted(units, reverse=True)
        return len(r) >= self.l and r[0] * c.denominator < c.numerator * sum(r[self.l - 1 :])

    def spare(self, counts: Counts) -> list[str | None]:
        """Equal to testing each value with :meth:`ok`, but the entropy / recursive test depends only on
        v's category (or, over values, on v's count), so it runs once per category (count) instead of
        once per value."""
        present = {v: n for v, n in counts.items() if n > 0}
        d = len(present)
        total = sum(n * self.w[v] for v, n in present.items())
        variant = self.model.variant
        over_values = variant == "entropy" and self.model.entropy_over == "values"
        by_cat: dict[int, int] = {}
        if variant != "distinct" and not over_values:
            for v, n in present.items():
                by_cat[self.cat[v]] = by_cat.get(self.cat[v], 0) + n
        memo: dict[int, bool] = {}
        out: list[str | None] = []
        for v, n in present.items():
            if d - (n == 1) < self.l or (total - self.w[v]) * self.a_den < self.a_num * self.den:
                continue
            if variant != "distinct":
                key = n if over_values else self.cat[v]
                verdict = memo.get(key)
                if verdict is None:
                    if over_values:
                        units = list(present.values())
                        units.remove(n)
                        left = n - 1
                    else:
                        units = [m for k, m in by_cat.items() if k != key]
                        left = by_cat[key] - 1
                    if left > 0:
                        units.append(left)
                    verdict = memo[key] = self._units_ok(units)
                if not verdict:
                    continue
            out.append(v)
        return out


class PlainJudge(Judge):
    """The plain models' own ``group_ok`` (one SA). Each of them depends only on the multiset of counts,
    not on which value has which, so its verdicts are remembered by the sorted counts (most candidate
    children are small and share a few shapes) and ``spare`` asks once per distinct count."""

    def __init__(self, model: PrivacyModel) -> None:
        self.model = model
        self.memo: dict[tuple[int, ...], bool] = {}

    def ok(self, counts: Counts) -> bool:
        shape = tuple(sorted(n for n in counts.values() if n > 0))
        verdict = self.memo.get(shape)
        if verdict is None:
            # the model's own test, on the counts under stand-in keys (it depends on the counts alone)
            verdict = self.memo[shape] = self.model.group_ok({str(i): n for i, n in enumerate(shape)})
        return verdict

    def key(self, v: str | None, in_parent: int) -> tuple[int, ...]:
        return (-in_parent,)

    def spare(self, counts: Counts) -> list[str | None]:
        present = {v: n for v, n in counts.items() if n > 0}
        memo: dict[int, bool] = {}
        out: list[str | None] = []
        for v, n in present.items():
            verdict = memo.get(n)
            if verdict is None:
                verdict = memo[n] = self.ok({**present, v: n - 1})
            if verdict:
                out.append(v)
        return out


class DistributionJudge(Judge):
    """A distribution model's (or a combination's) own ``group_ok``, against the baseline of the whole
    table (set by :meth:`admit`). It depends on which value has which count, so nothing is remembered by
    shape; repair prefers the value the parent holds least of relative to its baseline share. Which
    values a node can spare is decided for all of them at once: per distribution model, its ``rows_ok``
    over one row per candidate (the node's counts less one row of that value), in blocks of at most
    ``BLOCK`` cells (or the model's ``removals_ok``); per plain model of a combination, by its
    :class:`PlainJudge`."""

    BLOCK = 2**21

    def __init__(self, model: PrivacyModel) -> None:
        self.model = model
        self.shares: dict[str | None, int] = {}
        self.columns: dict[int, dict[str | None, int]] = {}  # per distribution model: its baseline's order
        # per plain model of a combination: its own judge (verdicts by the counts' shape)
        self.plain = {
            id(m): PlainJudge(m) for m in model.components() if not isinstance(m, DistributionModel)
        }

    def set_baseline(self, whole: Counts) -> None:
        pairs = [(v, int(n)) for v, n in whole.items() if n > 0]
        for m in self.model.components():
            if isinstance(m, DistributionModel):
                m.resolve({1: pairs})
                self.columns[id(m)] = {v: i for i, (v, _) in enumerate(m.baseline(1))}
        self.shares = dict(pairs)

    def ok(self, counts: Counts) -> bool:
        return self.model.group_ok(cast("Mapping[str, int]", {v: n for v, n in counts.items() if n > 0}))

    def spare(self, counts: Counts) -> list[str | None]:
        present = {v: n for v, n in counts.items() if n > 0}
        values = list(present)
        good = np.ones(len(values), dtype=bool)
        for m in self.model.components():
            if not good.any():
                break
            if isinstance(m, DistributionModel):
                good &= self._removable(m, present, values)
            else:
                spared = set(self.plain[id(m)].spare(present))
                good &= np.array([v in spared for v in values], dtype=bool)
        return [v for v, g in zip(values, good, strict=True) if g]

    def _removable(self, m: DistributionModel, present: Counts, values: list[str | None]) -> np.ndarray:
        """Per value of ``values``: whether ``m`` holds on ``present`` less one row of it."""
        columns = self.columns[id(m)]
        row = np.zeros(len(columns), dtype=np.int64)
        at = np.empty(len(values), dtype=np.int64)
        unknown = []
        for i, v in enumerate(values):
            c = columns.get(sql_text(v))
            if c is None:  # a value the baseline lacks fails the class while a row of it stays
                unknown.append(i)
                at[i] = -1
                continue
            row[c] += present[v]
            at[i] = c
        good = np.zeros(len(values), dtype=bool)
        if unknown:
            i = unknown[0]
            if len(unknown) == 1 and present[values[i]] == 1:  # given up, the class holds known values only
                good[i] = bool(m.rows_ok(1, row[None, :])[0])
            return good
        quick = m.removals_ok(1, row, at)
        if quick is not None:
            return quick
        step = max(1, self.BLOCK // max(len(row), 1))
        for lo in range(0, len(values), step):
            hi = min(lo + step, len(values))
            block = np.repeat(row[None, :], hi - lo, axis=0)
            block[np.arange(hi - lo), at[lo:hi]] -= 1
            good[lo:hi] = m.rows_ok(1, block)
        return good

    def key(self, v: str | None, in_parent: int) -> tuple[int, ...]:
        return (-(in_parent * 10**9) // max(self.shares.get(v, 1), 1),)

    def hint(self) -> str:
        return "raise --t, --delta or --beta (or lower --l)"


def judge_for(model: PrivacyModel, n_sa: int) -> Judge:
    """The judge of ``model``; a model top-down cannot target is a BadInput naming those it can."""
    if any(isinstance(m, DistributionModel) for m in model.components()):
        parts = model.components()
        if n_sa != 1 or not all(isinstance(m, (*PLAIN, DistributionModel)) for m in parts):
            raise BadInput(
                f"topdown cannot target {model.describe()}",
                "combine a distribution model with distinct, entropy, recursive, frequency or k-anonymity, "
                "for one SA",
            )
        return DistributionJudge(model)
    if isinstance(model, LAlpha):
        return AlphaJudge(model)
    if isinstance(model, PLAIN):
        if n_sa != 1:
            raise BadInput(
                f"topdown specializes for one sensitive attribute, got {n_sa}",
                "name one column with --sa (decomposition takes several SAs)",
            )
        return PlainJudge(model)
    raise BadInput(
        f"topdown cannot target {model.describe()}",
        f"use --model {PLAIN_NAMES}, or distinct-alpha, entropy-alpha or recursive-alpha with --alpha "
        "and --categories",
    )


def repair(judge: Judge, parent: dict[str | None, int], good: list[Child]) -> list[int] | None:
    """SPEC §3.3 repair(P, good) [D], in place. ``parent`` maps SA value -> count (the rows pushed back).
    Returns the row ids moved to P, or None when no row can be spared (the caller then moves every good
    child back to P). Which values a child can spare is recomputed only for the child that just gave a
    row (the others are unchanged), so a repair costs O(children + moves) model tests, not their product."""
    if judge.ok(parent):
        return []
    for child in good:
        for rids in child.rows.values():
            rids.sort()  # the largest row id last (the last tie-break), popped from the end
    spare = [judge.spare(child.n) for child in good]
    moved: list[int] = []
    while not judge.ok(parent):
        best: tuple[tuple[int, ...], int] | None = None
        pick = -1
        pick_v: str | None = None
        for i, child in enumerate(good):
            for v in spare[i]:
                key = (judge.key(v, parent.get(v, 0)), child.rows[v][-1])
                if best is None or key > best:
                    best, pick, pick_v = key, i, v
        if pick < 0:
            return None
        child = good[pick]
        moved.append(child.rows[pick_v].pop())
        child.n[pick_v] -= 1
        parent[pick_v] = parent.get(pick_v, 0) + 1
        spare[pick] = judge.spare(child.n)
    return moved
