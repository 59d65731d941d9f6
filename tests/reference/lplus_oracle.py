"""An independent brute force for l+-Optimize (SPEC §5.2–5.4): every full-subtree cut is enumerated and
priced row by row with Fractions. vioRec follows SPEC §5.3 literally (repeat: the violated value with the
highest confidence, then the smallest value id, loses ⌈(n_s − θ_s·n)/(1 − θ_s)⌉ rows). It shares no code
with ldiv_db.algorithms.lplus.search."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

Row = tuple[tuple[str, ...], str, str | None]  # (leaf per QI, SA value, class)


class Tax:
    """A taxonomy from child lists: ``{parent: [children]}`` with a root."""

    def __init__(self, root: str, children: dict[str, list[str]]) -> None:
        self.root = root
        self.kids = children
        self.up: dict[str, str] = {c: p for p, cs in children.items() for c in cs}

    def leaves(self, v: str) -> list[str]:
        cs = self.kids.get(v, [])
        return [v] if not cs else [x for c in cs for x in self.leaves(c)]

    def cuts(self, v: str | None = None) -> list[frozenset[str]]:
        v = self.root if v is None else v
        cs = self.kids.get(v, [])
        out = [frozenset([v])]
        if cs:
            for combo in itertools.product(*(self.cuts(c) for c in cs)):
                out.append(frozenset().union(*combo))
        return out

    def generalize(self, leaf: str, cut: frozenset[str]) -> str:
        v = leaf
        while v not in cut:
            v = self.up[v]
        return v


def lemma3(n_s: int, n: int, theta: Fraction) -> int:
    if n_s <= theta * n:
        return 0
    if theta == 1:
        return 0
    return math.ceil((n_s - theta * n) / (1 - theta))


def vio_rec_deletions(counts: dict[str, int], theta: dict[str, Fraction], order: list[str]) -> dict[str, int]:
    counts = dict(counts)
    deleted: Counter[str] = Counter()
    while True:
        n = sum(counts.values())
        violated = [s for s, c in counts.items() if c > theta[s] * n]
        if not violated:
            return dict(deleted)
        s = max(violated, key=lambda v: (Fraction(counts[v], n), -order.index(v)))
        k = lemma3(counts[s], n, theta[s])
        counts[s] -= k
        deleted[s] += k


def partition_cost(
    rows: list[Row],
    gen_lm: Fraction,
    theta: dict[str, Fraction],
    order: list[str],
    classes: list[str],
    metric: str,
    scheme: str,
    d: int,
    total: int,
) -> Fraction | None:
    n = len(rows)
    counts = Counter(r[1] for r in rows)
    violated = {s for s, c in counts.items() if c > theta[s] * n}
    if metric == "lm":
        c_s = Fraction(d) if scheme in ("viosa", "allsa") else Fraction(2 * d)
    elif metric == "dm":
        c_s = Fraction(total)
    else:
        c_s = Fraction(1)

    def gen(kept: list[Row]) -> Fraction:
        if metric == "lm":
            return len(kept) * gen_lm
        if metric == "dm":
            return Fraction(len(kept) ** 2)
        cls = Counter(r[2] for r in kept)
        return Fraction(len(kept) - (max(cls.values()) if cls else 0))

    if scheme == "nosupp":
        return None if violated else gen(rows)
    if scheme == "viosa":
        return gen(rows) + c_s * sum(counts[s] for s in violated)
    if scheme == "allsa":
        return gen(rows) + (c_s * n if violated else 0)
    if scheme == "allrec":
        return c_s * n if violated else gen(rows)
    dels = vio_rec_deletions(dict(counts), theta, order)
    kept = list(rows)
    if metric == "cm" and dels:
        cls = Counter(r[2] for r in rows)
        major = max(classes, key=lambda c: (cls.get(c, 0), -classes.index(c)))
        for s, k in dels.items():
            mine = [r for r in kept if r[1] == s]
            mine.sort(key=lambda r: (r[2] == major, classes.index(str(r[2]))))
            for r in mine[:k]:
                kept.remove(r)
    else:
        for s, k in dels.items():
            for _ in range(k):
                kept.remove(next(r for r in kept if r[1] == s))
    return gen(kept) + c_s * (n - len(kept))


def brute_force(
    taxes: Sequence[Tax],
    rows: Sequence[Row],
    theta: dict[str, Fraction],
    metric: str,
    scheme: str,
) -> dict[tuple[frozenset[str], ...], Fraction | None]:
    """Cost of every cut (None = infeasible)."""
    order: list[str] = []
    for r in rows:
        if r[1] not in order:
            order.append(r[1])
    classes = sorted({str(r[2]) for r in rows})
    d = len(taxes)
    sizes = [len(t.leaves(t.root)) for t in taxes]
    out: dict[tuple[frozenset[str], ...], Fraction | None] = {}
    for cut in itertools.product(*(t.cuts() for t in taxes)):
        parts: dict[tuple[str, ...], list[Row]] = {}
        for r in rows:
            key = tuple(t.generalize(v, c) for t, v, c in zip(taxes, r[0], cut, strict=True))
            parts.setdefault(key, []).append(r)
        total: Fraction | None = Fraction(0)
        for key, prow in parts.items():
            lm = sum(
                (Fraction(len(t.leaves(v)) - 1, size - 1) if size > 1 else Fraction(0))
                for t, v, size in zip(taxes, key, sizes, strict=True)
            )
            pc = partition_cost(prow, Fraction(lm), theta, order, classes, metric, scheme, d, len(rows))
            if pc is None:
                total = None
                break
            total += pc
        out[cut] = total
    return out


def optimum(costs: dict[tuple[frozenset[str], ...], Fraction | None]) -> Fraction | None:
    feasible = [c for c in costs.values() if c is not None]
    return min(feasible) if feasible else None
