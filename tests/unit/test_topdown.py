"""Top-down (l,α) decisions in pure Python (SPEC §3.3 repair key, round-robin) and the SPEC §3.1/§3.2
numbers on the library's LAlpha model."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.topdown import AlphaJudge as Judge
from ldiv_db.algorithms.topdown import Child, Node, PlainJudge, judge_for, repair
from ldiv_db.errors import BadInput
from ldiv_db.privacy import Distinct, Entropy, Frequency, KAnonymity, Recursive, UniqueDistinct
from ldiv_db.privacy.l_alpha import LAlpha

SA = ["HIV", "Cancer", "Phthisis", "Hepatitis", "Obesity", "Asthma", "Flu", "Indigestion"]
CATS = {v: i // 2 + 1 for i, v in enumerate(SA)}


def model(variant: str = "distinct", l: int = 2, alpha: object = 1, **kw: object) -> LAlpha:
    return LAlpha(variant, (l,), alpha, CATS, **kw)  # type: ignore[arg-type]


def child(label: str, rows: dict[str, list[int]]) -> Child:
    return Child(label, True, {v: len(r) for v, r in rows.items()}, {v: list(r) for v, r in rows.items()})


def test_table8_repair_moves_row_3() -> None:
    # at 435*: child 4352 = {4: Flu} fails and goes back; child 4351 = {1 HIV, 2 Flu, 3 HIV} is good
    good = child("4351", {"Flu": [2], "HIV": [1, 3]})
    assert repair(Judge(model()), {"Flu": 1}, [good]) == [3]
    assert good.counts() == {"Flu": 1, "HIV": 1}


def test_repair_prefers_new_value_then_weight_then_largest_rid() -> None:
    m = model(l=2, alpha=F(1, 3))
    good = [
        child("x", {"HIV": [8], "Phthisis": [7], "Flu": [2], "Cancer": [5]}),
        child("y", {"Flu": [6], "Obesity": [4], "Asthma": [3]}),
    ]
    # P = {HIV} needs a second value and weight 1/3: Flu is new with weight 1; row 6 > row 2
    assert repair(Judge(m), {"HIV": 1}, good) == [6]


def test_repair_gives_up_when_no_row_can_be_spared() -> None:
    good = [child("c", {"HIV": [1], "Flu": [2]})]  # removing any row breaks c
    assert repair(Judge(model()), {"Flu": 1}, good) is None


def test_round_robin_skips_leaves() -> None:
    assert Node((2, 0, 1), -1).next_attr() == 0
    assert Node((2, 0, 1), 0).next_attr() == 2
    assert Node((0, 0, 1), 2).next_attr() == 2
    assert Node((0, 0, 0), 1).next_attr() is None


def test_spec_3_1_weights() -> None:
    assert model().weights == {1: F(0), 2: F(1, 3), 3: F(2, 3), 4: F(1)}
    assert model().group_weight({"Cancer": 1, "Phthisis": 1, "Asthma": 1, "Flu": 1}) == 2
    sens = model(weights="sensitivity", beta=2)
    assert sens.weights == {1: F(0), 2: F(36, 49), 3: F(45, 49), 4: F(1)}
    assert sens.group_weight({"Cancer": 1, "Phthisis": 1, "Asthma": 1, "Flu": 1}) == F(130, 49)
    explicit = model(weights={1: 0, 2: F(9, 61), 3: F(45, 61), 4: F(61, 61)})
    assert explicit.group_weight({"Cancer": 1, "Phthisis": 1, "Asthma": 1, "Flu": 1}) == F(115, 61)


TABLE5 = [
    {"HIV": 2, "Cancer": 2},
    {"Hepatitis": 1, "Phthisis": 1, "Asthma": 1, "Obesity": 1},
    {"Flu": 3, "Indigestion": 1},
]
TABLE6 = [
    {"HIV": 2, "Cancer": 1, "Flu": 1},
    {"Hepatitis": 1, "Phthisis": 1, "Asthma": 1, "Obesity": 1},
    {"Cancer": 1, "Flu": 2, "Indigestion": 1},
]
TABLE7 = [
    {"HIV": 2, "Flu": 2},
    {"Hepatitis": 1, "Phthisis": 1, "Asthma": 1, "Obesity": 1},
    {"Cancer": 2, "Flu": 1, "Indigestion": 1},
]


def test_spec_3_2_group_tests() -> None:
    m = model()
    assert [m.group_weight(g) for g in TABLE5] == [0, 2, 4]
    assert not all(model(alpha=F(1, 100)).group_ok(g) for g in TABLE5)
    assert [m.group_weight(g) for g in TABLE6] == [1, 2, 3]
    assert all(model(l=3, alpha=1).group_ok(g) for g in TABLE6)
    assert not model("entropy", l=2, alpha=1).group_ok(TABLE6[0])
    assert [m.group_weight(g) for g in TABLE7] == [2, 2, 2]
    assert all(model("entropy", l=2, alpha=2).group_ok(g) for g in TABLE7)
    sens = model("entropy", l=2, alpha=2, weights="sensitivity", beta=2)
    assert sens.group_weight(TABLE7[1]) == F(162, 49)
    assert all(sens.group_ok(g) for g in TABLE7)


def test_judge_agrees_with_group_ok() -> None:
    import itertools

    groups = [*TABLE5, *TABLE6, *TABLE7, {"HIV": 5, "Flu": 1}, {"Flu": 4, "Cancer": 3, "Asthma": 2}]
    models = [
        model(v, l=l, alpha=a, c=c, entropy_over=eo)
        for v, l, a, c, eo in itertools.product(
            ["distinct", "entropy", "recursive"], [2, 3], [1, F(5, 2)], [F(3, 2), 3], ["categories", "values"]
        )
    ]
    for m in models:
        j = Judge(m)
        for g in groups:
            assert j.ok(g) == m.group_ok(g), (m.params(), g)


@settings(max_examples=300, deadline=None)
@given(
    counts=st.dictionaries(st.sampled_from([*SA, None]), st.integers(0, 6), max_size=9),
    variant=st.sampled_from(["distinct", "entropy", "entropy-values", "recursive"]),
    l=st.integers(2, 4),
    alpha=st.sampled_from([0, F(1, 3), 1, 2]),
)
def test_spare_equals_removing_each_value_and_asking_the_model(
    counts: dict[str | None, int], variant: str, l: int, alpha: F
) -> None:
    """Judge.spare (one test per category) against the model's own group test on each one-row removal."""
    over = "values" if variant == "entropy-values" else "categories"
    m = LAlpha(variant.removesuffix("-values"), (l,), alpha, {**CATS, None: 4}, c=2, entropy_over=over)
    expected = []
    for v, n in counts.items():
        if n > 0:
            rest = {k: (c - 1 if k == v else c) for k, c in counts.items()}
            if m.group_ok({k: c for k, c in rest.items() if c > 0}):
                expected.append(v)
    assert Judge(m).spare(counts) == expected
    assert Judge(m).ok(counts) == m.group_ok({k: c for k, c in counts.items() if c > 0})


PLAIN_MODELS = [
    Distinct((3,)),
    Entropy((2,)),
    Entropy((3,)),
    Recursive((2,), 2),
    Recursive((3,), F(3, 2)),
    Frequency((3,)),
    KAnonymity(5),
]


@settings(max_examples=300, deadline=None)
@given(
    counts=st.dictionaries(st.sampled_from([*SA, None]), st.integers(0, 6), max_size=9),
    which=st.integers(0, len(PLAIN_MODELS) - 1),
)
def test_plain_spare_equals_removing_each_value_and_asking_the_model(
    counts: dict[str | None, int], which: int
) -> None:
    """PlainJudge.spare (one model test per distinct count) against the model's own group test on each
    one-row removal."""
    m = PLAIN_MODELS[which]
    expected = []
    for v, n in counts.items():
        if n > 0:
            rest = {str(k): (c - 1 if k == v else c) for k, c in counts.items()}
            if m.group_ok({k: c for k, c in rest.items() if c > 0}):
                expected.append(v)
    judge = judge_for(m, 1)
    assert isinstance(judge, PlainJudge)
    assert judge.spare(counts) == expected
    assert judge.ok(counts) == m.group_ok({str(k): c for k, c in counts.items() if c > 0})


def test_plain_repair_takes_the_value_rarest_in_the_parent_then_the_largest_rid() -> None:
    # P = {Flu: 8, HIV: 1, Asthma: 1} fails entropy l = 2 (ln 10 − 0.8 ln 8 = 0.639 < ln 2); the good child
    # can spare any one row. HIV and Asthma (1 row each in P) beat Flu (8), Asthma's rid 6 beats HIV's 4:
    # P = {Flu 8, HIV 1, Asthma 2} then has entropy 0.760 ≥ ln 2
    good = [child("x", {"Flu": [30, 31], "HIV": [3, 4], "Asthma": [5, 6]})]
    assert repair(judge_for(Entropy((2,)), 1), {"Flu": 8, "HIV": 1, "Asthma": 1}, good) == [6]
    assert good[0].counts() == {"Flu": 2, "HIV": 2, "Asthma": 1}
    # the (l,α) key (no value is new to P, all weigh 0) would take Flu 31 and 30 and then give up
    alpha = LAlpha("entropy", (2,), 0, {"Flu": 4, "HIV": 4, "Asthma": 4}, entropy_over="values")
    good = [child("x", {"Flu": [30, 31], "HIV": [3, 4], "Asthma": [5, 6]})]
    assert repair(Judge(alpha), {"Flu": 8, "HIV": 1, "Asthma": 1}, good) is None


def test_judge_for_refuses_what_topdown_cannot_target() -> None:
    with pytest.raises(BadInput, match="topdown cannot target unique-distinct"):
        judge_for(UniqueDistinct((2,)), 1)
    with pytest.raises(BadInput, match="one sensitive attribute"):
        judge_for(Distinct((2, 2)), 2)
    assert isinstance(judge_for(model(), 1), Judge)


def test_docs_name_exactly_the_models_topdown_accepts() -> None:
    """The algorithms page's row of topdown (docs/concepts/algorithms.md) lists every model judge_for
    accepts, and no other."""
    import re
    from pathlib import Path

    from ldiv_db.privacy import MODELS, ModelParams, build_model

    params = {"l": 3, "c": 4, "k": 5, "alpha": 1, "categories": {"x": 1}, "thresholds": {"x": 1}}
    accepted = set()
    for name in MODELS:
        try:
            judge_for(build_model(name, 1, ModelParams(**params)), 1)  # type: ignore[arg-type]
        except BadInput:
            continue
        accepted.add(name)
    page = Path(__file__).resolve().parents[2] / "docs" / "concepts" / "algorithms.md"
    row = next(
        line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("| `topdown` |")
    )
    listed = {name for name in re.findall(r"`([a-z-]+)`", row) if name in MODELS}
    assert listed == accepted
    assert accepted == {"distinct", "entropy", "recursive", "frequency", "k-anonymity",
                        "distinct-alpha", "entropy-alpha", "recursive-alpha"}  # fmt: skip


DISTRIBUTION_MODELS = [
    ("delta-disclosure", {"delta": F(1, 2)}),
    ("delta-disclosure", {"delta": 1, "delta_variant": "arx"}),
    ("t-closeness", {"t": F(1, 5)}),
    ("t-closeness", {"t": F(1, 3), "distance": "ordered", "sa_order": ["a", "b", "c", "d", "e", "f", "g"]}),
    ("beta-likeness", {"beta": 1}),
    ("beta-likeness", {"beta": F(1, 2), "likeness": "enhanced"}),
    ("distinct,delta-disclosure", {"l": 2, "delta": 1}),
    ("entropy,t-closeness", {"l": 2, "t": F(1, 3)}),
    ("k-anonymity,beta-likeness", {"k": 3, "beta": 2}),
]


@settings(max_examples=400, deadline=None)
@given(
    whole=st.dictionaries(st.sampled_from(list("abcdefg")), st.integers(1, 9), min_size=2),
    node=st.dictionaries(st.sampled_from([*"abcdefg", "z"]), st.integers(0, 5), max_size=8),
    which=st.integers(0, len(DISTRIBUTION_MODELS) - 1),
)
def test_distribution_spare_equals_removing_each_value_and_asking_the_model(
    whole: dict[str, int], node: dict[str, int], which: int
) -> None:
    """DistributionJudge.spare (every removal judged at once by the model's rows_ok, per plain model by
    count) against the model's own group test on each one-row removal; 'z' is a value the baseline lacks."""
    from ldiv_db.algorithms.topdown.judge import DistributionJudge
    from ldiv_db.privacy import ModelParams, build_model

    name, params = DISTRIBUTION_MODELS[which]
    m = build_model(name, 1, ModelParams(**params))  # type: ignore[arg-type]
    judge = judge_for(m, 1)
    assert isinstance(judge, DistributionJudge)
    judge.set_baseline(whole)
    expected = []
    for v, n in node.items():
        if n > 0:
            rest = {k: (c - 1 if k == v else c) for k, c in node.items()}
            if m.group_ok({k: c for k, c in rest.items() if c > 0}):
                expected.append(v)
    assert judge.spare(node) == expected
    judge.BLOCK = 8  # blocks of a row or two: the same verdicts
    assert judge.spare(node) == expected


def test_distribution_spare_of_many_values_is_one_pass_per_block() -> None:
    """A node holding 4,000 SA values: which of them it can spare is judged for all of them at once, not by
    a class test per value over every baseline value (issue 57, "no pathologies"; history, "Round 20: the
    other models and commands")."""
    import time

    from ldiv_db.privacy import ModelParams, build_model

    judge = judge_for(build_model("delta-disclosure", 1, ModelParams(delta=5)), 1)
    judge.set_baseline({f"v{i}": 3 for i in range(4000)})
    node = {f"v{i}": 2 for i in range(4000)}
    t0 = time.perf_counter()
    spared = judge.spare(node)
    assert time.perf_counter() - t0 < 3.0
    assert len(spared) == 4000  # after any removal the largest |log ratio| is about ln 2, below 5


@settings(max_examples=300, deadline=None)
@given(
    row=st.lists(st.integers(0, 5), min_size=1, max_size=9),
    baseline=st.lists(st.integers(1, 30), min_size=9, max_size=9),
    delta=st.fractions(min_value=F(1, 20), max_value=4),
    arx=st.booleans(),
)
def test_delta_removals_equal_rows_ok_of_each_removal(
    row: list[int], baseline: list[int], delta: F, arx: bool
) -> None:
    """DeltaDisclosure.removals_ok (every candidate's measure from the top two of the shared columns)
    against rows_ok of the candidate rows built one by one; a row of one row empties its class."""
    import numpy as np

    from ldiv_db.privacy import ModelParams, build_model

    m = build_model("delta-disclosure", 1, ModelParams(delta=delta, delta_variant="arx" if arx else "paper"))
    m.resolve({1: [(f"v{i}", n) for i, n in enumerate(baseline[: len(row)])]})  # type: ignore[attr-defined]
    r = np.array(row, dtype=np.int64)
    at = np.flatnonzero(r > 0)
    if not len(at):
        return
    block = np.repeat(r[None, :], len(at), axis=0)
    block[np.arange(len(at)), at] -= 1
    want = m.rows_ok(1, block).tolist()  # type: ignore[attr-defined]
    assert m.removals_ok(1, r, at).tolist() == want  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(
    row=st.lists(st.integers(0, 5), min_size=1, max_size=12),
    baseline=st.lists(st.integers(1, 30), min_size=12, max_size=12),
    t=st.fractions(min_value=0, max_value=1, max_denominator=1000),
    distance=st.sampled_from(["equal", "ordered"]),
    pick=st.integers(0, 11),
)
def test_closeness_removals_equal_rows_ok_of_each_removal(
    row: list[int], baseline: list[int], t: F, distance: str, pick: int
) -> None:
    """TCloseness.removals_ok (the shared E = row·N − B·(m − 1), corrected at each candidate's column)
    against rows_ok of the candidate rows built one by one, at a drawn t and at one candidate's own
    EMD (the boundary, which passes)."""
    import numpy as np

    from ldiv_db.privacy.closeness import TCloseness

    r = np.array(row, dtype=np.int64)
    at = np.flatnonzero(r > 0)
    if not len(at):
        return
    block = np.repeat(r[None, :], len(at), axis=0)
    block[np.arange(len(at)), at] -= 1
    pairs = [(str(i), n) for i, n in enumerate(baseline[: len(row)])]
    probe = TCloseness(1, F(1), distance, numeric=[True])
    probe.resolve({1: pairs})
    num, den = probe.distances(1, block)
    i = pick % len(at)
    edge = F(int(num[i]), int(den[i])) if int(den[i]) else t
    for bound in (t, min(edge, F(1))):
        m = TCloseness(1, bound, distance, numeric=[True])
        m.resolve({1: pairs})
        got = m.removals_ok(1, r, at)
        assert got is not None  # these sums fit int64
        assert got.tolist() == m.rows_ok(1, block).tolist()
