"""The reference oracle checked against SPEC's worked numbers (T-ELIG, T-W, T-LA-TAB) and a few invariants."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reference.evaluator import (
    eligible,
    entropy,
    recursive_ok,
    reference_check,
    resolve_weights,
    sensitivity_thresholds,
    weights_sensitivity,
    weights_uniform,
)

F = Fraction

# SPEC §3.1, paper Table 4: S1 (most sensitive) … S4 (non secret).
CATEGORIES = {
    "HIV": 1,
    "Cancer": 1,
    "Phthisis": 2,
    "Hepatitis": 2,
    "Obesity": 3,
    "Asthma": 3,
    "Flu": 4,
    "Indigestion": 4,
}


def _table(*groups: list[str]) -> list[dict[str, object]]:
    """Rows with a group id ``g`` (1, 2, 3 …), a constant QI ``q`` and SA ``disease``."""
    return [{"g": gi, "q": gi, "disease": v} for gi, grp in enumerate(groups, 1) for v in grp]


TABLE5 = _table(
    ["HIV", "HIV", "Cancer", "Cancer"],
    ["Hepatitis", "Phthisis", "Asthma", "Obesity"],
    ["Flu", "Flu", "Flu", "Indigestion"],
)
TABLE6 = _table(
    ["HIV", "HIV", "Cancer", "Flu"],
    ["Hepatitis", "Phthisis", "Asthma", "Obesity"],
    ["Cancer", "Flu", "Flu", "Indigestion"],
)
TABLE7 = _table(
    ["HIV", "HIV", "Flu", "Flu"],
    ["Hepatitis", "Phthisis", "Asthma", "Obesity"],
    ["Cancer", "Cancer", "Flu", "Indigestion"],
)


def _check(rows, **kw):
    return reference_check(rows, ["q"], "disease", group_column="g", categories=CATEGORIES, **kw)


def _weights_of(rows, wmap):
    out: dict[object, Fraction] = {}
    for r in rows:
        out[r["g"]] = out.get(r["g"], F(0)) + wmap[CATEGORIES[r["disease"]]]
    return [out[g] for g in sorted(out)]


# ------------------------------------------------------------------------------------------------ T-ELIG
def test_t_elig():
    assert eligible([2, 2], 2)
    assert not eligible([3, 1], 2)
    assert eligible([], 5)
    rows = [{"q": 1, "s": v} for v in "aabb"] + [{"q": 2, "s": v} for v in "aaab"]
    res = reference_check(rows, ["q"], "s", model="frequency", l=2)
    assert res["violating_groups"] == 1 and res["violating_rows"] == 4 and not res["satisfied"]
    assert res["frequency_l_exact"] == "4/3"
    ok = reference_check(rows[:4], ["q"], "s", model="frequency", l=2)
    assert ok["satisfied"] and ok["frequency_l_exact"] == "2"


# ------------------------------------------------------------------------------------------------ T-W
def test_weights_uniform_k4():
    assert weights_uniform(4) == {1: F(0), 2: F(1, 3), 3: F(2, 3), 4: F(1)}


def test_weights_sensitivity_beta2_and_beta1():
    assert weights_sensitivity(4, 2) == {1: F(0), 2: F(36, 49), 3: F(45, 49), 4: F(1)}
    assert weights_sensitivity(4, 1) == {1: F(0), 2: F(6, 11), 3: F(9, 11), 4: F(1)}
    w = weights_sensitivity(4, 1.5)
    assert w[1] == 0 and w[4] == 1 and 0 < w[2] < w[3] < 1


def test_example_set_totals():
    example = ["Cancer", "Phthisis", "Asthma", "Flu"]
    u = weights_uniform(4)
    s = weights_sensitivity(4, 2)
    assert sum(u[CATEGORIES[v]] for v in example) == 2
    assert sum(s[CATEGORIES[v]] for v in example) == F(130, 49)
    explicit = resolve_weights(CATEGORIES, {1: 0, 2: "9/61", 3: "45/61", 4: 1}, 2)
    assert sum(explicit[CATEGORIES[v]] for v in example) == F(115, 61)


# ------------------------------------------------------------------------------------------------ T-LA-TAB
def test_table5_distinct_but_not_alpha():
    assert _weights_of(TABLE5, weights_uniform(4)) == [0, 2, 4]
    assert _check(TABLE5, model="distinct", l=2)["satisfied"]
    assert _check(TABLE5, model="distinct-alpha", l=2, alpha=0)["satisfied"]
    for a in (1e-9, 0.001, "1/1000000", 0.5, 1, 2):
        res = _check(TABLE5, model="distinct-alpha", l=2, alpha=a)
        assert not res["satisfied"]
        assert res["violating_groups"] == 1 and res["violating_rows"] == 4


def test_table6_distinct_31_holds_entropy_over_categories_fails():
    assert _weights_of(TABLE6, weights_uniform(4)) == [1, 2, 3]
    res = _check(TABLE6, model="distinct-alpha", l=3, alpha=1)
    assert res["satisfied"] and res["distinct_l"] == 3
    assert not _check(TABLE6, model="distinct-alpha", l=3, alpha=F(1) + F(1, 10**9))["satisfied"]
    # group 1 = {HIV,HIV,Cancer,Flu}: categories (3,1) → entropy 0.562 < ln 2
    assert entropy([3, 1]) == pytest.approx(0.5623351446188083)
    ent = _check(TABLE6, model="entropy-alpha", l=2, alpha=1)
    assert not ent["satisfied"] and ent["violating_groups"] == 2
    # over values instead: group 1 = (2,1,1), group 3 = (2,1,1) → entropy 1.04 ≥ ln 2
    assert _check(TABLE6, model="entropy-alpha", l=2, alpha=1, entropy_over="values")["satisfied"]


def test_table7_entropy_22_holds():
    assert _weights_of(TABLE7, weights_uniform(4)) == [2, 2, 2]
    assert _check(TABLE7, model="entropy-alpha", l=2, alpha=2)["satisfied"]
    assert not _check(TABLE7, model="entropy-alpha", l=3, alpha=2)["satisfied"]
    sens = weights_sensitivity(4, 2)
    assert _weights_of(TABLE7, sens)[1] == F(162, 49)
    assert _check(TABLE7, model="entropy-alpha", l=2, alpha=2, weights="sensitivity", beta=2)["satisfied"]
    paper = {1: 0, 2: "9/61", 3: "45/61", 4: 1}
    res = _check(TABLE7, model="entropy-alpha", l=2, alpha=2, weights=paper)
    assert not res["satisfied"] and res["violating_groups"] == 1 and res["violating_rows"] == 4


def test_recursive_alpha_over_categories():
    # Table 7 category counts: (2,2), (2,2), (2,2) → r1 < c·r2 iff c > 1.
    assert _check(TABLE7, model="recursive-alpha", l=2, alpha=2, c=1.01)["satisfied"]
    assert not _check(TABLE7, model="recursive-alpha", l=2, alpha=2, c=1)["satisfied"]
    # Table 6 group 1 = categories (3,1): needs c > 3.
    assert not _check(TABLE6, model="recursive-alpha", l=2, alpha=1, c=3)["satisfied"]
    assert _check(TABLE6, model="recursive-alpha", l=2, alpha=1, c="3.0001")["satisfied"]


# ------------------------------------------------------------------------------------------------ statistics
def test_stats_table6():
    res = _check(TABLE6)
    assert res["groups"] == 3 and res["rows"] == 12 and res["k"] == 4
    assert res["distinct_l"] == 3
    assert res["frequency_l_exact"] == "2" and res["frequency_l"] == 2.0
    assert res["entropy_l"] == pytest.approx(math.exp(-(0.5 * math.log(0.5) + 0.5 * math.log(0.25))))
    # c_above(l) = max over groups of r1/(r_l+…): groups (2,1,1), (1,1,1,1), (2,1,1)
    assert res["recursive"] == [{"l": 2, "c_above": "1"}, {"l": 3, "c_above": "2"}]
    assert "model" not in res and "per_sa" not in res


def test_recursive_definition():
    assert recursive_ok([3, 2, 1], F(2), 2)  # 3 < 2·3
    assert not recursive_ok([3, 2, 1], F(1), 2)  # 3 < 3 fails
    assert not recursive_ok([3], F(100), 2)  # q < l
    assert not recursive_ok([1, 1, 1], F(1), 3)  # 1 < 1·1 fails
    assert recursive_ok([1, 1, 1], F(11, 10), 3)  # 1 < 1.1·1
    assert recursive_ok([4, 1, 1, 1], F(3, 2), 2) and not recursive_ok([4, 1, 1, 1], F(4, 3), 2)


def test_unique_distinct():
    rows = [{"q": 1, "s": v} for v in "abc"] + [{"q": 2, "s": v} for v in "abb"]
    res = reference_check(rows, ["q"], "s", model="unique-distinct", l=2)
    assert res["violating_groups"] == 1 and res["violating_rows"] == 3
    assert not reference_check(rows[:3], ["q"], "s", model="unique-distinct", l=4)["satisfied"]
    assert reference_check(rows[:3], ["q"], "s", model="unique-distinct", l=3)["satisfied"]


def test_lplus_exact_threshold():
    # θ = 0.57, |G| = 100, G(a) = 57: not violated exactly; binary floats give 56.99999999999999 < 57.
    rows = [{"q": 1, "s": "a"}] * 57 + [{"q": 1, "s": "b"}] * 43
    assert 0.57 * 100 < 57
    assert reference_check(rows, ["q"], "s", model="lplus", thresholds={"a": 0.57, "b": 0.43})["satisfied"]
    assert not reference_check(rows, ["q"], "s", model="lplus", thresholds={"a": 0.56})["satisfied"]
    # absent values default to 1/l when l is given, else 1
    assert reference_check(rows, ["q"], "s", model="lplus", thresholds={"a": 0.57})["satisfied"]
    assert not reference_check(rows, ["q"], "s", model="lplus", l=3, thresholds={"a": 0.57})["satisfied"]
    assert not reference_check(rows, ["q"], "s", model="lplus", l=2)["satisfied"]


def test_lplus_sensitivity():
    col = ["a"] * 6 + ["b"] * 2 + ["c"] * 2  # n = 10, m = 3, fr_avg = 10/3
    assert sensitivity_thresholds(col, 2) == {"a": F(9, 10), "b": F(1, 2), "c": F(1, 2)}
    assert sensitivity_thresholds(col, 1) == {"a": F(1), "b": F(1), "c": F(1)}
    rows = [{"q": 1, "s": v} for v in col]
    assert reference_check(rows, ["q"], "s", model="lplus", l=2, sensitivity=True)["satisfied"]
    assert not reference_check(rows, ["q"], "s", model="lplus", l=2)["satisfied"]
    # equality fr(s) = fr_avg keeps θ
    assert sensitivity_thresholds(["a", "a", "b", "b"], 2) == {"a": F(1, 2), "b": F(1, 2)}


def test_multi_sa():
    rows = [
        {"q": 1, "s1": "a", "s2": "x"},
        {"q": 1, "s1": "b", "s2": "x"},
        {"q": 2, "s1": "a", "s2": "x"},
        {"q": 2, "s1": "a", "s2": "y"},
    ]
    res = reference_check(rows, ["q"], ["s1", "s2"], model="distinct", l=[2, 2])
    assert res["per_sa"]["s1"]["violating_groups"] == 1
    assert res["per_sa"]["s2"]["violating_groups"] == 1
    assert res["violating_groups"] == 2 and res["violating_rows"] == 4
    assert res["distinct_l"] == 1 and res["recursive"] == []
    ok = reference_check(rows, ["q"], ["s1", "s2"], model="distinct", l=[1, 1])
    assert ok["satisfied"]
    part = reference_check(rows, ["q"], ["s1", "s2"], model="distinct", l=[2, 1])
    assert part["violating_groups"] == 1 and part["per_sa"]["s2"]["satisfied"]


def test_null_grouping_and_null_sa():
    rows = [
        {"q": None, "s": "a"},
        {"q": None, "s": "b"},
        {"q": 1, "s": None},
        {"q": 1, "s": None},
    ]
    res = reference_check(rows, ["q"], "s", null_as_value=True)
    assert res["groups"] == 2 and res["k"] == 2 and res["distinct_l"] == 1
    assert res["frequency_l_exact"] == "1"
    # NULL SA as "unknown": group q=1 has no known value
    unk = reference_check(rows, ["q"], "s", model="distinct", l=1)
    assert unk["distinct_l"] == 0 and unk["frequency_l_exact"] == "2" and unk["violating_groups"] == 1
    assert unk["entropy_l"] == pytest.approx(2.0)
    half = [{"q": 1, "s": "a"}, {"q": 1, "s": None}]
    assert reference_check(half, ["q"], "s", model="lplus", l=2)["satisfied"]  # 1 ≤ ½·2
    assert reference_check(half, ["q"], "s", model="frequency", l=2)["satisfied"]
    assert not reference_check(half, ["q"], "s", model="unique-distinct", l=1)["satisfied"]


# ------------------------------------------------------------------------------------------------ invariants
_counts = st.lists(st.integers(1, 6), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(groups=st.lists(_counts, min_size=1, max_size=5), ell=st.integers(1, 6), c=st.integers(1, 12))
def test_stats_agree_with_models(groups, ell, c):
    rows = [{"q": gi, "s": vi} for gi, cs in enumerate(groups) for vi, n in enumerate(cs) for _ in range(n)]
    cf = F(c, 4)
    stats = reference_check(rows, ["q"], "s")
    assert stats["distinct_l"] == min(len(cs) for cs in groups)
    dist = reference_check(rows, ["q"], "s", model="distinct", l=ell)["satisfied"]
    assert dist == (stats["distinct_l"] >= ell)
    freq = reference_check(rows, ["q"], "s", model="frequency", l=ell)["satisfied"]
    assert freq == (F(stats["frequency_l_exact"]) >= ell)
    assert freq == reference_check(rows, ["q"], "s", model="lplus", l=ell)["satisfied"]
    if freq:
        assert dist  # a non-empty l-eligible set has ≥ l distinct values
    ent = reference_check(rows, ["q"], "s", model="entropy", l=ell)["satisfied"]
    assert ent == (math.log(stats["entropy_l"]) >= math.log(ell) - 1e-12)
    rec = reference_check(rows, ["q"], "s", model="recursive", l=ell, c=cf)["satisfied"]
    if ell >= 2 and stats["distinct_l"] >= ell:
        assert rec == (cf > F(stats["recursive"][ell - 2]["c_above"]))
    if ell >= 2 and stats["distinct_l"] < ell:
        assert not rec
    uniq = reference_check(rows, ["q"], "s", model="unique-distinct", l=ell)["satisfied"]
    if uniq:  # SPEC §2.1: implies distinct, entropy and recursive for every c > 1
        assert dist and ent
        if ell >= 2:
            rec_ok = reference_check(rows, ["q"], "s", model="recursive", l=ell, c=F(101, 100))
            assert rec_ok["satisfied"]
