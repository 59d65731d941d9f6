"""The population-uniqueness estimators against the papers' formulas worked by hand or by plain
enumeration: Zayatz's Bayes step with exact binomial coefficients, Pitman's likelihood as the product
the sampling formula is (maximised over a grid), the SNB expectations summed term by term over the
population class sizes, Shlosser's estimator and Dankar's rule. Convention: population uniqueness is the
estimated number of population uniques divided by the population size N."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.risks import estimators as e

EULER = 0.5772156649015329


def test_digamma_known_values() -> None:
    assert e.digamma(1.0) == pytest.approx(-EULER, abs=1e-13)
    assert e.digamma(0.5) == pytest.approx(-EULER - 2 * math.log(2), abs=1e-13)
    harmonic = sum(1 / k for k in range(1, 8))
    assert e.digamma(8.0) == pytest.approx(harmonic - EULER, abs=1e-13)


def test_hypergeometric_one_is_the_exact_count() -> None:
    for big_n, size, n in [(8, 1, 4), (8, 2, 4), (10, 3, 5), (12, 7, 6), (9, 9, 3)]:
        exact = Fraction(size * math.comb(big_n - size, n - 1), math.comb(big_n, n))
        assert e.hypergeometric_one(big_n, size, n) == pytest.approx(float(exact), rel=1e-12)


def test_zayatz_hand_case() -> None:
    """F_1 = 2, F_2 = 1 (n = 4 of N = 8): P(f=1|F=1) = C(7,3)/C(8,4) = 1/2, P(f=1|F=2) = 2·C(6,3)/C(8,4)
    = 4/7; P(F=1|f=1) = (2/3·1/2)/(2/3·1/2 + 1/3·4/7) = 7/11; Û = 2·7/11·8/4 = 28/11; uniqueness 7/22."""
    u = e.zayatz({1: 2, 2: 1}, 8)
    assert u == pytest.approx(28 / 11, rel=1e-12)
    assert u / 8 == pytest.approx(7 / 22, rel=1e-12)


def test_zayatz_with_the_whole_population_is_the_sample_uniques() -> None:
    assert e.zayatz({1: 5, 2: 3, 4: 1}, 15) == pytest.approx(5)


def _pitman_product_log(fof: dict[int, int], theta: float, alpha: float) -> float:
    """log Π_{i<u}(θ+iα) / Π_{i<n}(θ+i) · Π_j Π_{k<j}(k−α)^{F_j}, written out as the product."""
    n = sum(i * c for i, c in fof.items())
    u = sum(fof.values())
    out = sum(math.log(theta + i * alpha) for i in range(1, u))
    out -= sum(math.log(theta + i) for i in range(1, n))
    out += sum(c * sum(math.log(k - alpha) for k in range(1, j)) for j, c in fof.items())
    return out


FOF = {1: 12, 2: 5, 3: 3, 5: 2, 9: 1}


def test_pitman_likelihood_is_the_sampling_formula() -> None:
    for theta, alpha in [(1.5, 0.3), (10.0, 0.7), (0.2, 0.05)]:
        assert e.pitman_log_likelihood(FOF, theta, alpha) == pytest.approx(
            _pitman_product_log(FOF, theta, alpha), rel=1e-10
        )


def test_pitman_mle_beats_a_grid_and_zeroes_the_score() -> None:
    mle = e.pitman_mle(FOF)
    assert mle is not None
    theta, alpha = mle
    best = _pitman_product_log(FOF, theta, alpha)
    grid = max(
        _pitman_product_log(FOF, t, a)
        for a in [k / 40 for k in range(1, 40)]
        for t in [x / 4 for x in range(-3, 120)]
        if t > -a
    )
    assert best >= grid - 1e-9
    h = 1e-5  # the score by central differences of the product form
    d_theta = (_pitman_product_log(FOF, theta + h, alpha) - _pitman_product_log(FOF, theta - h, alpha)) / (
        2 * h
    )
    assert abs(d_theta) < 1e-4


def test_pitman_uniques_formula() -> None:
    theta, alpha = e.pitman_mle(FOF) or (0.0, 0.0)
    big_n = 1000
    want = math.gamma(theta + 1) / math.gamma(theta + alpha) * big_n**alpha
    assert e.pitman(FOF, big_n) == pytest.approx(want, rel=1e-9)


def test_pitman_has_no_estimate_when_every_record_is_unique() -> None:
    assert e.pitman({1: 10}, 1000) is None


def _nb(x: int, a: float, b: float) -> float:
    return math.exp(
        math.lgamma(a + x) - math.lgamma(a) - math.lgamma(x + 1) + a * math.log(b) + x * math.log(1 - b)
    )


@pytest.mark.parametrize(("a", "b", "pi"), [(0.5, 0.3, 0.1), (2.0, 0.6, 0.4), (0.8, 0.05, 0.02)])
def test_snb_expectations_sum_over_population_sizes(a: float, b: float, pi: float) -> None:
    """E[F_s] = K·Σ_F P(F)·C(F,s)·π^s(1−π)^(F−s), P(F) the shifted negative binomial, summed term by term."""
    k = 100.0
    e1 = k * sum(_nb(big - 1, a, b) * big * pi * (1 - pi) ** (big - 1) for big in range(1, 6000))
    e2 = k * sum(
        _nb(big - 1, a, b) * math.comb(big, 2) * pi**2 * (1 - pi) ** (big - 2) for big in range(2, 6000)
    )
    got = e.snb_expected(k, pi, a, b)
    assert got[0] == pytest.approx(e1, rel=1e-9)
    assert got[1] == pytest.approx(e2, rel=1e-9)


def test_snb_fit_reproduces_the_sample() -> None:
    fof = {1: 40, 2: 15, 3: 6, 6: 2}
    n = sum(i * c for i, c in fof.items())
    fitted = e.snb_parameters(fof, 0.2)
    assert fitted is not None
    k, a, b = fitted
    assert k == pytest.approx(e.shlosser(fof, 0.2))
    f1, f2 = e.snb_expected(k, 0.2, a, b)
    assert (f1, f2) == (pytest.approx(40, rel=1e-8), pytest.approx(15, rel=1e-8))
    assert e.snb(fof, n / 0.2) == pytest.approx(k * b**a)


def test_shlosser_hand_case() -> None:
    """F_1 = 2, F_2 = 1, π = 1/2: u + F_1·Σ(1/2)^i F_i / Σ i·(1/2)(1/2)^(i−1) F_i = 3 + 2·(1 + 1/4)/(1 + 1/2)."""
    assert e.shlosser({1: 2, 2: 1}, 0.5) == pytest.approx(3 + 2 * 1.25 / 1.5)


@pytest.mark.parametrize(
    ("fraction", "p", "z", "s", "chosen"),
    [
        (0.05, 3.0, 4.0, 2.0, "pitman"),
        (0.05, None, 4.0, 2.0, "zayatz"),
        (0.1, 3.0, 4.0, 2.0, "pitman"),
        (0.2, 3.0, 4.0, 2.0, "snb"),
        (0.2, 3.0, 1.0, 2.0, "zayatz"),
        (0.2, 3.0, 1.0, None, "zayatz"),
        (0.2, None, None, None, None),
    ],
)
def test_dankar_rule(
    fraction: float, p: float | None, z: float | None, s: float | None, chosen: str | None
) -> None:
    assert e.dankar_choice(fraction, p, z, s) == chosen


def test_no_sample_uniques_means_no_population_uniques() -> None:
    est = e.estimate({2: 5, 3: 2}, 1000)
    assert (est.pitman, est.zayatz, est.snb, est.dankar) == (0.0, 0.0, 0.0, 0.0)


@settings(max_examples=50, deadline=None)
@given(
    fof=st.dictionaries(st.integers(1, 8), st.integers(1, 6), min_size=1, max_size=5),
    scale=st.sampled_from([1.0001, 1.3, 2.0, 9.0, 50.0, 1e4]),
)
def test_estimates_are_in_range_or_absent_never_an_error(fof: dict[int, int], scale: float) -> None:
    """Whatever the frequencies, every estimate is a number of uniques in [0, N] or None (no fit)."""
    n = sum(i * c for i, c in fof.items())
    big_n = n * scale
    est = e.estimate(fof, big_n)
    for value in (est.pitman, est.zayatz, est.snb, est.dankar):
        assert value is None or 0 <= value <= big_n
