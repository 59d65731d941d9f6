"""Independent reference oracle for ``ldiv check`` (SPEC §0.2, §2.1, §3.1–3.2, §4.1, §5.1).

Written from the specification only: pure Python, :mod:`fractions` and :mod:`math`. It never imports
``ldiv_db``. Every comparison is exact (integer cross-multiplication on :class:`~fractions.Fraction`),
except the entropy tests, which use natural logs with the SPEC's 1e-12 tolerance.

``reference_check(rows, qi, sa, **kwargs)`` returns the same keys as ``CheckResult.to_dict()`` except
``worst``:

* ``groups``, ``rows``, ``k`` (minimum group size),
* ``distinct_l``, ``entropy_l`` (exp of the minimum group entropy), ``frequency_l`` / ``frequency_l_exact``
  (minimum of |G|/h(G)), ``recursive`` (for l = 2..distinct_l, the largest r_1/(r_l+…+r_q)),
* with a model: ``model``, ``satisfied``, ``violating_groups``, ``violating_rows``,
* with several SAs: ``per_sa`` (one stats dict per SA, with its own model verdict); the top-level stats are
  the weakest over the SAs and a group violates when it violates for any SA.

NULL handling (a choice of this oracle, documented so the differential tests can state it): grouping
treats NULL as equal to NULL, on the QI tuple and on ``group_column``. An SA value ``None`` is an ordinary
value when ``null_as_value`` is true; otherwise a NULL SA is "unknown": the row counts in |G| (and so in
``rows``/``k``, in the l-eligibility test l·h(G) ≤ |G| and in the l+ denominator, SPEC §5.1) but it is not a
value: it adds nothing to the distinct count, the entropy (computed over the known rows), h(G), the recursive
counts or the (l,α) weight. A group without any known value is left out of ``entropy_l`` and
``frequency_l`` (None when no group has a known value); it fails every model that needs l distinct values or
an entropy, and passes frequency (l·0 ≤ |G|) and l+ (no value is violated) vacuously.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

ENTROPY_TOL = 1e-12

MODELS = (
    "k-anonymity",
    "distinct",
    "entropy",
    "recursive",
    "frequency",
    "unique-distinct",
    "lplus",
    "distinct-alpha",
    "entropy-alpha",
    "recursive-alpha",
)
ALPHA_MODELS = ("distinct-alpha", "entropy-alpha", "recursive-alpha")


# --------------------------------------------------------------------------------------------- numbers
def exact(x: Any) -> Fraction:
    """A user number as an exact fraction: 0.9 → 9/10 (SPEC §0.3), "9/61" → 9/61."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, bool):
        raise TypeError("a number is expected, not a bool")
    return Fraction(str(x))


def weights_uniform(K: int) -> dict[int, Fraction]:
    """Uniform scheme (SPEC §3.1): w(S_j) = (j−1)/(K−1)."""
    if K < 2:
        raise ValueError("at least two categories are needed")
    return {j: Fraction(j - 1, K - 1) for j in range(1, K + 1)}


def weights_sensitivity(K: int, beta: Any = 2) -> dict[int, Fraction]:
    """Sensitivity scheme (SPEC §3.1): w(S_j) = Σ_{i=2..j} (i−1)^(−β) / Σ_{i=2..K} (i−1)^(−β).

    Exact for an integer β; a non-integer β goes through floats (then converted to fractions).
    """
    if K < 2:
        raise ValueError("at least two categories are needed")
    b = exact(beta)
    if b.denominator == 1:
        e = int(b)
        gaps = [Fraction(1) / Fraction(i - 1) ** e for i in range(2, K + 1)]
    else:
        gaps = [Fraction((i - 1) ** (-float(b))) for i in range(2, K + 1)]
    total = sum(gaps, Fraction(0))
    out = {1: Fraction(0)}
    acc = Fraction(0)
    for j in range(2, K + 1):
        acc += gaps[j - 2]
        out[j] = acc / total
    return out


def resolve_weights(categories: Mapping[Hashable, int], weights: Any, beta: Any) -> dict[int, Fraction]:
    ranks = set(categories.values())
    K = max(ranks)
    if weights is None or weights == "uniform":
        return weights_uniform(K)
    if weights == "sensitivity":
        return weights_sensitivity(K, beta)
    if isinstance(weights, Mapping):
        return {int(r): exact(w) for r, w in weights.items()}
    raise ValueError(f"unknown weights {weights!r}")


def entropy(counts: Iterable[int]) -> float:
    """−Σ p ln p (natural log) of a count vector; 0 for an empty one."""
    cs = [c for c in counts if c > 0]
    n = sum(cs)
    if n == 0:
        return 0.0
    return -math.fsum((c / n) * math.log(c / n) for c in cs)


def entropy_ok(counts: Iterable[int], ell: Any) -> bool:
    return entropy(counts) >= math.log(float(ell)) - ENTROPY_TOL


def recursive_ok(counts: Iterable[int], c: Fraction, ell: int) -> bool:
    """r_1 < c·(r_l+…+r_q); false when q < l (SPEC §0.2)."""
    r = sorted((x for x in counts if x > 0), reverse=True)
    if len(r) < ell or ell < 1:
        return False
    return r[0] < c * sum(r[ell - 1 :])


def eligible(counts: Iterable[int], ell: int, size: int | None = None) -> bool:
    """l-eligibility: l·h(X) ≤ |X| (the empty set is eligible); |X| defaults to the sum of the counts."""
    cs = list(counts)
    return ell * max(cs, default=0) <= (sum(cs) if size is None else size)


# --------------------------------------------------------------------------------------------- grouping
def _group(rows: Sequence[Mapping[str, Any]], qi: Sequence[str], group_column: str | None) -> list[list[int]]:
    groups: dict[Any, list[int]] = {}
    for i, row in enumerate(rows):
        key = (row[group_column],) if group_column is not None else tuple(row[q] for q in qi)
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def _sa_stats(group_counts: list[Counter[Any]], sizes: list[int]) -> dict[str, Any]:
    """Model-free statistics of one SA over the groups."""
    distinct_l = min(len(c) for c in group_counts)
    known = [c for c in group_counts if c]
    # groups without a known SA value have no entropy and no pillar: they are left out of these minima
    entropy_min = min((entropy(c.values()) for c in known), default=None)
    freq: Fraction | None = None
    for c, n in zip(group_counts, sizes, strict=True):
        if c:
            f = Fraction(n, max(c.values()))
            if freq is None or f < freq:
                freq = f
    recursive = []
    for ell in range(2, distinct_l + 1):
        worst = max(
            Fraction(r[0], sum(r[ell - 1 :]))
            for r in (sorted(c.values(), reverse=True) for c in group_counts)
        )
        recursive.append({"l": ell, "c_above": str(worst)})
    return {
        "groups": len(sizes),
        "rows": sum(sizes),
        "k": min(sizes),
        "distinct_l": distinct_l,
        "entropy_l": None if entropy_min is None else math.exp(entropy_min),
        "frequency_l": None if freq is None else float(freq),
        "frequency_l_exact": None if freq is None else str(freq),
        "recursive": recursive,
    }


def sensitivity_thresholds(column: Sequence[Any], ell: int) -> dict[Any, Fraction]:
    """SPEC §5.1: θ_s = θ if fr(s) ≤ fr_avg else min(1, θ·fr(s)/fr_avg); θ = 1/l, fr_avg = |T|/m."""
    theta = Fraction(1, ell)
    fr = Counter(column)
    n = len(column)
    m = len(fr)
    out = {}
    for s, f in fr.items():
        # fr(s) ≤ n/m  ⇔  f·m ≤ n
        out[s] = theta if f * m <= n else min(Fraction(1), theta * Fraction(f * m, n))
    return out


def _violates(
    model: str,
    counts: Counter[Any],
    n: int,
    *,
    ell: Any,
    c: Fraction | None,
    k: Any,
    alpha: Fraction | None,
    theta: Mapping[Any, Fraction] | None,
    theta_default: Fraction,
    categories: Mapping[Any, int] | None,
    wmap: Mapping[int, Fraction] | None,
    entropy_over: str,
) -> bool:
    vals = list(counts.values())
    if model == "k-anonymity":
        return not n >= int(k)
    if model == "distinct":
        return not len(counts) >= int(ell)
    if model == "entropy":
        return not (vals and entropy_ok(vals, ell))
    if model == "recursive":
        assert c is not None
        return not recursive_ok(vals, c, int(ell))
    if model == "frequency":
        return not eligible(vals, int(ell), n)
    if model == "unique-distinct":
        return not (n == len(counts) and len(counts) >= int(ell))
    if model == "lplus":
        for s, cnt in counts.items():
            th = theta.get(s, theta_default) if theta is not None else theta_default
            if cnt > th * n:  # unknown (NULL) SA rows stay in the denominator (SPEC §5.1)
                return True
        return False
    if model in ALPHA_MODELS:
        assert categories is not None and wmap is not None and alpha is not None
        weight = sum((wmap[categories[s]] * cnt for s, cnt in counts.items()), Fraction(0))
        if not (len(counts) >= int(ell) and weight >= alpha):
            return True
        cat_counts: Counter[int] = Counter()
        for s, cnt in counts.items():
            cat_counts[categories[s]] += cnt
        if model == "entropy-alpha":
            over = list(cat_counts.values()) if entropy_over == "categories" else vals
            return not (over and entropy_ok(over, ell))
        if model == "recursive-alpha":
            assert c is not None
            return not recursive_ok(list(cat_counts.values()), c, int(ell))
        return False
    raise ValueError(f"unknown model {model!r}")


# --------------------------------------------------------------------------------------------- main
def reference_check(
    rows: Sequence[Mapping[str, Any]],
    qi: Sequence[str],
    sa: str | Sequence[str],
    *,
    model: str | None = None,
    l: Any = None,
    c: Any = None,
    k: Any = None,
    alpha: Any = None,
    thresholds: Mapping[Any, Any] | None = None,
    sensitivity: bool = False,
    categories: Mapping[Any, int] | None = None,
    weights: Any = None,
    beta: Any = 2,
    entropy_over: str = "categories",
    group_column: str | None = None,
    null_as_value: bool = False,
) -> dict[str, Any]:
    """The oracle: the statistics and model verdict of a table given as a list of row dicts."""
    sas = [sa] if isinstance(sa, str) else list(sa)
    multi = len(sas) > 1  # a list of one SA is the single-SA case (no per_sa)
    if isinstance(l, list | tuple):
        ls = list(l)
    else:
        ls = [l] * len(sas)
    if len(ls) != len(sas):
        raise ValueError("one l per SA is needed")
    if model is not None and model not in MODELS:
        raise ValueError(f"unknown model {model!r}")
    if not rows:
        raise ValueError("empty table")

    groups = _group(rows, qi, group_column)
    sizes = [len(g) for g in groups]
    cc = exact(c) if c is not None else None
    aa = exact(alpha) if alpha is not None else None
    wmap = resolve_weights(categories, weights, beta) if model in ALPHA_MODELS and categories else None

    per_sa: dict[str, dict[str, Any]] = {}
    viol_any = [False] * len(groups)
    for name, l_sa in zip(sas, ls, strict=True):
        counts_list: list[Counter[Any]] = []
        for g in groups:
            cnt: Counter[Any] = Counter()
            for i in g:
                v = rows[i][name]
                if v is None and not null_as_value:
                    continue
                cnt[v] += 1
            counts_list.append(cnt)
        stats = _sa_stats(counts_list, sizes)
        if model is not None:
            theta: dict[Any, Fraction] | None = None
            theta_default = Fraction(1, int(l_sa)) if l_sa is not None else Fraction(1)
            if model == "lplus":
                if sensitivity:
                    col = [r[name] for r in rows if null_as_value or r[name] is not None]
                    theta = sensitivity_thresholds(col, int(l_sa))
                elif thresholds is not None:
                    theta = {s: exact(t) for s, t in thresholds.items()}
            viol = [
                _violates(
                    model,
                    cnt,
                    n,
                    ell=l_sa,
                    c=cc,
                    k=k,
                    alpha=aa,
                    theta=theta,
                    theta_default=theta_default,
                    categories=categories,
                    wmap=wmap,
                    entropy_over=entropy_over,
                )
                for cnt, n in zip(counts_list, sizes, strict=True)
            ]
            stats["model"] = model
            stats["violating_groups"] = sum(viol)
            stats["violating_rows"] = sum(n for v, n in zip(viol, sizes, strict=True) if v)
            stats["satisfied"] = not any(viol)
            viol_any = [a or b for a, b in zip(viol_any, viol, strict=True)]
        per_sa[name] = stats

    if not multi:
        out = dict(per_sa[sas[0]])
    else:
        all_stats = list(per_sa.values())
        dl = min(s["distinct_l"] for s in all_stats)
        freqs = [Fraction(s["frequency_l_exact"]) for s in all_stats if s["frequency_l_exact"] is not None]
        freq = min(freqs, default=None)
        ents = [s["entropy_l"] for s in all_stats if s["entropy_l"] is not None]
        recursive = []
        for l_ in range(2, dl + 1):
            worst = max(
                Fraction(next(r["c_above"] for r in s["recursive"] if r["l"] == l_)) for s in all_stats
            )
            recursive.append({"l": l_, "c_above": str(worst)})
        out = {
            "groups": len(groups),
            "rows": sum(sizes),
            "k": min(sizes),
            "distinct_l": dl,
            "entropy_l": min(ents, default=None),
            "frequency_l": None if freq is None else float(freq),
            "frequency_l_exact": None if freq is None else str(freq),
            "recursive": recursive,
        }
        if model is not None:
            out["model"] = model
            out["violating_groups"] = sum(viol_any)
            out["violating_rows"] = sum(n for v, n in zip(viol_any, sizes, strict=True) if v)
            out["satisfied"] = not any(viol_any)
        out["per_sa"] = per_sa
    return out
