"""Population-uniqueness estimators on a sample's frequency-of-frequencies vector: Zayatz (1991), Pitman's
sampling formula as Hoshino (2001) uses it, the slide (shifted) negative binomial of Chen & Keller-McNulty (1998),
and Dankar, El Emam, Neisa & Roffey's (2012) rule choosing among them.

Every estimator takes ``fof`` — {class size i: number of sample classes of that size (F_i)} — the sample
size n (= Σ i·F_i) and the population size N ≥ n, and returns the estimated number of population
uniques, or None where its model has no estimate (no solution, an estimate outside [0, N]). The vector is
small (one entry per distinct class size), so the work is in Python, in logs (lgamma) throughout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

DANKAR_SMALL_FRACTION = 0.1  # Dankar et al. 2012: Pitman at sampling fractions up to 10 %, else Zayatz/SNB


def digamma(x: float) -> float:
    """ψ(x) for x > 0: the recurrence ψ(x) = ψ(x+1) − 1/x up to x ≥ 10, then the asymptotic series."""
    acc = 0.0
    while x < 10.0:
        acc -= 1.0 / x
        x += 1.0
    inv = 1.0 / x
    inv2 = inv * inv
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132)))))
    return acc + math.log(x) - 0.5 * inv - series


def log_choose(a: float, b: float) -> float:
    """log C(a, b) through lgamma (a, b real, 0 ≤ b ≤ a)."""
    return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)


def _check(fof: Mapping[int, int]) -> tuple[int, int]:
    """(n, u): the sample size and its number of classes."""
    return sum(i * c for i, c in fof.items()), sum(fof.values())


def _valid(uniques: float, population: float) -> float | None:
    return uniques if math.isfinite(uniques) and 0.0 <= uniques <= population else None


# ---------------------------------------------------------------------------- Zayatz 1991
def hypergeometric_one(population: float, size: int, sample: int) -> float:
    """P(f = 1 | F = size): the chance that a population class of ``size`` leaves exactly one record in a
    simple random sample of ``sample`` out of ``population``: size·C(N−size, n−1)/C(N, n)."""
    if population - size < sample - 1:
        return 0.0
    log_p = math.log(size) + log_choose(population - size, sample - 1) - log_choose(population, sample)
    return math.exp(log_p)


def zayatz(fof: Mapping[int, int], population: float) -> float | None:
    """Zayatz (1991): the share of sample classes of each size estimates the population's; Bayes' rule
    gives P(F = 1 | f = 1) = (F_1/u)·P(f=1|F=1) / Σ_i (F_i/u)·P(f=1|F=i); the population uniques are the
    sample uniques that are population unique, expanded by 1/π: F_1·P(F=1|f=1)·N/n."""
    n, u = _check(fof)
    f1 = fof.get(1, 0)
    if f1 == 0:
        return 0.0
    weights = {i: (c / u) * hypergeometric_one(population, i, n) for i, c in fof.items()}
    total = sum(weights.values())
    if total <= 0:
        return None
    conditional = weights.get(1, 0.0) / total
    return _valid(f1 * conditional * population / n, population)


# ---------------------------------------------------------------------------- Pitman 1996 / Hoshino 2001
def pitman_log_likelihood(fof: Mapping[int, int], theta: float, alpha: float) -> float:
    """log of Pitman's sampling formula for the sample's partition, without the combinatorial constant:
    Σ_{i<u} log(θ + iα) − Σ_{i<n} log(θ + i) + Σ_j F_j Σ_{k<j} log(k − α), in lgamma form."""
    n, u = _check(fof)
    first = (u - 1) * math.log(alpha) + math.lgamma(theta / alpha + u) - math.lgamma(theta / alpha + 1)
    second = math.lgamma(theta + n) - math.lgamma(theta + 1)
    third = sum(c * (math.lgamma(j - alpha) - math.lgamma(1 - alpha)) for j, c in fof.items())
    return first - second + third


def _theta_score(n: int, u: int, alpha: float) -> Callable[[float], float]:
    """∂ log L/∂θ = Σ_{i<u} 1/(θ + iα) − Σ_{i<n} 1/(θ + i), through ψ."""

    def score(theta: float) -> float:
        a = (digamma(theta / alpha + u) - digamma(theta / alpha + 1)) / alpha
        return a - (digamma(theta + n) - digamma(theta + 1))

    return score


def _root_above(score: Callable[[float], float], low: float) -> float | None:
    """The θ > ``low`` where the decreasing-through-zero score vanishes (bisection on a doubling bracket)."""
    lo = low + 1e-12 * max(1.0, abs(low))
    hi = max(1.0, abs(low))
    while score(hi) > 0:
        hi *= 2
        if hi > 1e15:
            return None
    if score(lo) < 0:
        return None
    for _ in range(200):
        mid = (lo + hi) / 2
        if score(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * max(1.0, abs(hi)):
            break
    return (lo + hi) / 2


def pitman_mle(fof: Mapping[int, int]) -> tuple[float, float] | None:
    """The maximum-likelihood (θ, α) of Pitman's sampling formula, 0 < α < 1, θ > −α: for each α the θ
    that zeroes ∂L/∂θ, then the α maximising that profile likelihood (a grid, refined by golden section).
    None where the likelihood has no interior maximum (every record unique, or none)."""
    n, u = _check(fof)
    if u >= n or u < 2:
        return None

    def profile(alpha: float) -> tuple[float, float] | None:
        theta = _root_above(_theta_score(n, u, alpha), -alpha)
        return None if theta is None else (pitman_log_likelihood(fof, theta, alpha), theta)

    grid = [k / 200 for k in range(1, 200)]
    scored = [(p[0], a) for a in grid if (p := profile(a)) is not None]
    if not scored:
        return None
    best = max(scored)[1]
    lo, hi = max(best - 1 / 200, 1e-9), min(best + 1 / 200, 1 - 1e-9)
    golden = (math.sqrt(5) - 1) / 2

    def value(a: float) -> float:
        p = profile(a)
        return -math.inf if p is None else p[0]

    for _ in range(80):
        x1, x2 = hi - golden * (hi - lo), lo + golden * (hi - lo)
        if value(x1) >= value(x2):
            hi = x2
        else:
            lo = x1
    alpha = (lo + hi) / 2
    p = profile(alpha)
    return None if p is None else (p[1], alpha)


def pitman(fof: Mapping[int, int], population: float) -> float | None:
    """Hoshino (2001) under Pitman's (1996) sampling formula: population uniques ≈ Γ(θ+1)/Γ(θ+α)·N^α at the
    maximum-likelihood (θ, α) of the sample's partition."""
    if fof.get(1, 0) == 0:
        return 0.0
    mle = pitman_mle(fof)
    if mle is None:
        return None
    theta, alpha = mle
    log_u = math.lgamma(theta + 1) - math.lgamma(theta + alpha) + alpha * math.log(population)
    return _valid(math.exp(log_u) if log_u < 700 else math.inf, population)


# ---------------------------------------------------------------------------- SNB, Chen & Keller-McNulty 1998
def shlosser(fof: Mapping[int, int], fraction: float) -> float:
    """Shlosser's estimate of the number of population classes (Haas et al. 1995, eq. for D̂_Sh):
    u + F_1·Σ_i (1−π)^i F_i / Σ_i i·π·(1−π)^(i−1) F_i."""
    _, u = _check(fof)
    q = 1.0 - fraction
    num = sum(q**i * c for i, c in fof.items())
    den = sum(i * fraction * q ** (i - 1) * c for i, c in fof.items())
    return u + fof.get(1, 0) * num / den if den > 0 else float(u)


def snb_expected(classes: float, fraction: float, a: float, b: float) -> tuple[float, float]:
    """E[F_1] and E[F_2] when the population's class sizes are 1 + NegBin(α, β) over K classes and each
    record is sampled with probability π (d = (1−π)(1−β)):
    E[F_1] = Kπ(β/(1−d))^α (1 + αd/(1−d)),
    E[F_2] = K(π²/2)·α·β^α(1−β)·(1−d)^−(α+2)·(2 − (1−α)d)."""
    d = (1 - fraction) * (1 - b)
    e1 = classes * fraction * (b / (1 - d)) ** a * (1 + a * d / (1 - d))
    e2 = classes * fraction**2 / 2 * a * b**a * (1 - b) * (1 - d) ** (-(a + 2)) * (2 - (1 - a) * d)
    return e1, e2


def snb_parameters(fof: Mapping[int, int], fraction: float) -> tuple[float, float, float] | None:
    """(K, α, β) that match E[F_1], E[F_2] to the sample's F_1, F_2 (Newton's method in log α, logit β
    from several starts); None where no start converges."""
    f1, f2 = fof.get(1, 0), fof.get(2, 0)
    if f1 == 0 or f2 == 0:
        return None
    k = shlosser(fof, fraction)

    def residual(x: float, y: float) -> tuple[float, float] | None:
        if not (abs(x) < 50 and abs(y) < 50):  # α or β at the edge of its range: no fit there
            return None
        a, b = math.exp(x), 1 / (1 + math.exp(-y))
        if not 0 < b < 1:
            return None
        try:
            e1, e2 = snb_expected(k, fraction, a, b)
            return math.log(e1) - math.log(f1), math.log(e2) - math.log(f2)
        except (ValueError, OverflowError, ZeroDivisionError):
            return None

    for x0, y0 in [(0.0, 0.0), (-2.0, -2.0), (2.0, 2.0), (-2.0, 2.0), (2.0, -2.0), (-4.0, 0.0), (0.0, -4.0)]:
        found = _newton2(residual, x0, y0)
        if found is not None:
            return k, math.exp(found[0]), 1 / (1 + math.exp(-found[1]))
    return None


def _newton2(
    residual: Callable[[float, float], tuple[float, float] | None], x: float, y: float
) -> tuple[float, float] | None:
    """Damped Newton on two equations with a forward-difference Jacobian; the root, or None."""
    for _ in range(200):
        r = residual(x, y)
        if r is None:
            return None
        if abs(r[0]) < 1e-10 and abs(r[1]) < 1e-10:
            return x, y
        h = 1e-7
        rx, ry = residual(x + h, y), residual(x, y + h)
        if rx is None or ry is None:
            return None
        j11, j21 = (rx[0] - r[0]) / h, (rx[1] - r[1]) / h
        j12, j22 = (ry[0] - r[0]) / h, (ry[1] - r[1]) / h
        det = j11 * j22 - j12 * j21
        if det == 0 or not math.isfinite(det):
            return None
        dx, dy = (r[0] * j22 - r[1] * j12) / det, (j11 * r[1] - j21 * r[0]) / det
        step = 1.0
        norm = abs(r[0]) + abs(r[1])
        while step > 1e-6:
            trial = residual(x - step * dx, y - step * dy)
            if trial is not None and abs(trial[0]) + abs(trial[1]) < norm:
                break
            step /= 2
        else:
            return None
        x, y = x - step * dx, y - step * dy
    return None


def snb(fof: Mapping[int, int], population: float) -> float | None:
    """Chen & Keller-McNulty (1998): population uniques = K·P(F = 1) = K·β^α at the fitted (K, α, β)."""
    if fof.get(1, 0) == 0:
        return 0.0
    n, _ = _check(fof)
    fitted = snb_parameters(fof, n / population)
    if fitted is None:
        return None
    k, a, b = fitted
    return _valid(k * b**a, population)


# ---------------------------------------------------------------------------- Dankar et al. 2012
@dataclass(frozen=True)
class Estimates:
    """The estimated numbers of population uniques by each model, and the one Dankar's rule picks."""

    pitman: float | None
    zayatz: float | None
    snb: float | None
    chosen: str | None  # 'pitman', 'zayatz' or 'snb'; None where no model has an estimate

    @property
    def dankar(self) -> float | None:
        return None if self.chosen is None else getattr(self, self.chosen)


def dankar_choice(
    fraction: float, pitman_u: float | None, zayatz_u: float | None, snb_u: float | None
) -> str | None:
    """Dankar et al. (2012): at a sampling fraction ≤ 10 % Pitman's estimate, falling back to Zayatz's
    where Pitman has none; above it the smaller of Zayatz's and the SNB's (Zayatz's alone where SNB has
    none)."""
    if fraction <= DANKAR_SMALL_FRACTION:
        if pitman_u is not None:
            return "pitman"
        return "zayatz" if zayatz_u is not None else None
    if snb_u is not None and (zayatz_u is None or snb_u < zayatz_u):
        return "snb"
    return "zayatz" if zayatz_u is not None else None


def estimate(fof: Mapping[int, int], population: float) -> Estimates:
    """All three estimates and Dankar's choice, for a sample of the population of ``population`` records."""
    n, _ = _check(fof)
    p, z, s = pitman(fof, population), zayatz(fof, population), snb(fof, population)
    return Estimates(p, z, s, dankar_choice(n / population, p, z, s))
