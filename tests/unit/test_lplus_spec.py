"""l+-Optimize engine against SPEC §5.9 exactly: the 25 cuts and the Fig. 2 numbering (taxonomy order),
Example 4 (#MinRm 2 then 1), every row of the brute-force table, Example 5 (locking makes ⟨Sec,Eu⟩
homogeneous), the DM+vioRec counterexample of §5.7, T-FRAC, and the LB soundness on Fig. 1 at every node
and locking stage."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from ldiv_db.algorithms.lplus import boxes
from ldiv_db.algorithms.lplus.problem import INF, least_deletions, min_rm
from ldiv_db.algorithms.lplus.search import Search
from tests.reference.lplus_oracle import Tax, brute_force
from tests.unit.lplus_fixtures import COUNTRY, EDU, FIG1, to_problem

VALUES = ("Cancer", "Flu", "Asthma")


def theta(x: F) -> dict[str, F]:
    return {v: x for v in VALUES}


def labels_of(cut: tuple[tuple[int, ...], ...], names: list[list[str]]) -> frozenset[str]:
    return frozenset(names[a][u] for a, nodes in enumerate(cut) for u in nodes)


def test_25_cuts_and_fig2_numbering() -> None:
    problem, names = to_problem([EDU, COUNTRY], FIG1, theta(F(1, 2)))
    seen: list[tuple[frozenset[str], frozenset[str]]] = []

    def trace(kind: str, depth: int, cost: int, lb: int) -> None:
        if kind == "visit":
            open_now = frozenset(
                names[a][v] for a, flags in enumerate(search.open_node) for v in range(len(flags)) if flags[v]
            )
            seen.append((labels_of(search._snapshot(), names), open_now))

    search = Search(problem, value_order="taxonomy", trace=trace, enumerate_all=True)
    result = search.run()
    assert result.total_cuts == 25
    assert len(seen) == 25 and len({c for c, _ in seen}) == 25  # Thm 1: every cut exactly once
    cut = {i + 1: c for i, (c, _) in enumerate(seen)}
    opened = {i + 1: o for i, (_, o) in enumerate(seen)}
    expect = {
        1: {"AnyEdu", "AnyCountry"},
        2: {"Sec", "Uni", "AnyCountry"},
        3: {"Jr", "Sr", "Uni", "AnyCountry"},
        4: {"Jr", "Sr", "Ba", "Grad", "AnyCountry"},
        9: {"Jr", "Sr", "Uni", "Eu", "Am"},
        13: {"Sec", "Ba", "Grad", "AnyCountry"},
        18: {"Sec", "Uni", "Eu", "Am"},
        19: {"Sec", "Uni", "UK", "France", "Am"},
        20: {"Sec", "Uni", "UK", "France", "Canada", "USA"},
        21: {"Sec", "Uni", "Eu", "Canada", "USA"},
        22: {"AnyEdu", "Eu", "Am"},
        25: {"AnyEdu", "Eu", "Canada", "USA"},
    }
    for number, labels in expect.items():
        assert cut[number] == labels, number
    assert opened[2] == {"Sec", "Uni", "AnyCountry"}  # all open
    assert opened[18] == {"Eu", "Am"}  # Sec, Uni locked
    assert "AnyEdu" not in opened[22] and opened[22] == {"Eu", "Am"}  # AnyEdu locked


def test_example4_min_rm() -> None:
    # ⟨Uni, AnyCountry⟩ = rows 5–10: Asthma 3, Cancer 2, Flu 1; θ = 1/3
    assert min_rm(3, 6, 1, 3) == 2
    assert min_rm(2, 6 - 2, 1, 3) == 1  # under the Rec schemes, after Asthma lost 2 rows
    assert least_deletions([3, 2, 1], [(1, 3)] * 3) == [2, 1, 0]  # d = 3
    assert min_rm(1, 6, 1, 3) == 0


def test_t_frac_exact_arithmetic() -> None:
    # SPEC §0.3: θ = 0.9, n = n_i = 10 → ⌈(10 − 9)/(1/10)⌉ = 10 (binary floats give 11)
    assert min_rm(10, 10, 9, 10) == 10


TABLE = [
    (F(1, 2), "lm", "nosupp", F(35, 3), {"AnyEdu", "UK", "France", "Am"}),
    (F(1, 2), "lm", "viosa", F(7), {"Sec", "Uni", "UK", "France", "Am"}),
    (F(1, 2), "lm", "allsa", F(7), {"Sec", "Uni", "UK", "France", "Am"}),
    (F(1, 2), "lm", "viorec", F(26, 3), None),
    (F(1, 2), "lm", "allrec", F(26, 3), None),
    (F(1, 2), "dm", "nosupp", F(38), {"AnyEdu", "UK", "France", "Am"}),
    (F(1, 2), "dm", "viorec", F(31), {"AnyEdu", "UK", "France", "Canada", "USA"}),
    (F(1, 2), "dm", "allrec", F(38), {"AnyEdu", "UK", "France", "Am"}),
    (F(1, 3), "lm", "nosupp", None, None),
    (F(1, 3), "dm", "nosupp", None, None),
    (F(1, 3), "lm", "viosa", F(59, 3), {"Jr", "Sr", "Ba", "Grad", "UK", "France", "Am"}),
    (F(1, 3), "lm", "allsa", F(20), {"Jr", "Sr", "Ba", "Grad", "UK", "France", "Canada", "USA"}),
    (F(1, 3), "lm", "viorec", F(22), {"AnyEdu", "AnyCountry"}),
    (F(1, 3), "lm", "allrec", F(31), None),
    (F(1, 3), "dm", "viorec", F(58), None),
    (F(1, 3), "dm", "allrec", F(79), None),
]


@pytest.mark.parametrize(("th", "metric", "scheme", "cost", "cut"), TABLE)
@pytest.mark.parametrize("order", ["occurrences", "taxonomy"])
def test_brute_force_table(
    th: F, metric: str, scheme: str, cost: F | None, cut: set[str] | None, order: str
) -> None:
    problem, names = to_problem([EDU, COUNTRY], FIG1, theta(th), metric, scheme)
    result = Search(problem, value_order=order).run()  # type: ignore[arg-type]
    if cost is None:
        assert result.cost is None
        return
    assert result.cost is not None and result.optimal
    assert F(result.cost, result.unit) == cost
    assert result.visited + result.pruned == result.total_cuts == 25
    if cut is not None:
        assert result.cut is not None and labels_of(result.cut, names) == cut
    # the release evaluation of the chosen cut gives the same cost
    assert result.cut is not None
    assert Search(problem).apply(result.cut)[4] == result.cost


def _lb_sound(problem, order: str = "taxonomy") -> int:  # type: ignore[no-untyped-def]
    """Check LB ≤ the minimum cost of the cuts it covers, at every node and locking stage; returns checks."""
    events: list[tuple[str, int, int, int]] = []
    Search(problem, value_order=order, enumerate_all=True, trace=lambda *e: events.append(e)).run()  # type: ignore[arg-type]
    checks = 0
    for i, (kind, depth, _, lb) in enumerate(events):
        covered = []
        if kind == "visit":
            covered.append(events[i][2])
        for kind2, depth2, cost2, _ in events[i + 1 :]:
            if kind2 == "visit" and depth2 <= depth:
                break
            if kind2 == "stage" and depth2 < depth:
                break
            if kind2 == "visit":
                covered.append(cost2)
        if covered:
            assert lb <= min(covered), (i, kind, lb, min(covered))
            checks += 1
    return checks


@pytest.mark.parametrize("th", [F(1, 2), F(1, 3)])
@pytest.mark.parametrize(
    ("metric", "scheme"),
    [("lm", s) for s in ("nosupp", "viosa", "allsa", "viorec", "allrec")]
    + [("dm", s) for s in ("nosupp", "viorec", "allrec")],
)
def test_lb_sound_on_fig1(th: F, metric: str, scheme: str) -> None:
    problem, _ = to_problem([EDU, COUNTRY], FIG1, theta(th), metric, scheme)
    assert _lb_sound(problem) > 25


def test_example5_locking_makes_partition_homogeneous() -> None:
    # at Cut18 (Sec, Uni locked; Eu, Am open) ⟨Sec,Eu⟩ = rows 1–4 spans UK and France: not homogeneous, so
    # its LM/allSA bound is below its cost; once Eu is locked (back from Cut19) its LB is its exact cost
    problem, names = to_problem([EDU, COUNTRY], FIG1, theta(F(1, 2)), "lm", "allsa")
    stages: list[tuple[str, int, int, int, frozenset[str]]] = []

    def trace(kind: str, depth: int, cost: int, lb: int) -> None:
        stages.append((kind, depth, cost, lb, labels_of(search._snapshot(), names)))

    search = Search(problem, value_order="taxonomy", enumerate_all=True, trace=trace)
    search.run()
    at18 = next(i for i, s in enumerate(stages) if s[0] == "visit" and s[4] == {"Sec", "Uni", "Eu", "Am"})
    lb18 = stages[at18][3]
    after = next(s for s in stages[at18 + 1 :] if s[0] == "stage" and s[1] == stages[at18][1])
    assert after[4] == {"Sec", "Uni", "Eu", "Am"} and after[3] > lb18  # locking Eu raised the LB
    # the partitions holding Eu: ⟨Sec,Eu⟩ (rows 1–4, no violation) goes from its bound 4 × Sec 1/3 = 4/3
    # to its exact cost 4 × (Sec 1/3 + Eu 1/3) = 8/3; ⟨Uni,Eu⟩ = {5} (one row, already homogeneous,
    # Asthma suppressed at cost |QI| = 2) goes from 1/3 + 2 to 1/3 + 1/3 + 2
    unit = search.unit
    assert F(after[3] - lb18, unit) == (F(8, 3) - F(4, 3)) + (F(8, 3) - F(7, 3))


def test_dm_viorec_counterexample(monkeypatch: pytest.MonkeyPatch) -> None:
    # SPEC §5.7: Any → {a, b}; 9 rows a (7 s1, 2 s2), 1 row b (s2); θ = 1/2
    tax = Tax("Any", {"Any": ["a", "b"]})
    rows = [(("a",), "s1", None)] * 7 + [(("a",), "s2", None)] * 2 + [(("b",), "s2", None)]
    th = {"s1": F(1, 2), "s2": F(1, 2)}
    costs = brute_force([tax], rows, th, "dm", "viorec")
    assert sorted(costs.values()) == [76, 76]  # type: ignore[type-var]
    problem, _ = to_problem([tax], rows, th, "dm", "viorec")

    def root_event() -> tuple[str, int, int, int]:
        events: list[tuple[str, int, int, int]] = []
        Search(problem, enumerate_all=True, trace=lambda *e: events.append(e)).run()
        return events[0]

    # with one attribute, the recursion over the partition's boxes (boxes.py) ranges over exactly the
    # cuts: the root's bound is the brute force's optimum
    assert root_event()[2:] == (76, 76)
    with monkeypatch.context() as m:
        m.setattr(boxes, "MAX_POINTS", 0)  # §5.7's bound alone
        root = root_event()
    assert root[2] == 76 and root[3] == 46  # the safe bound d·|T| + (n − d) = 4·10 + 6
    thm4 = max(4 * 10, 9**2 + 1**2)  # the paper's generic bound with Σ|Q|² at Cut_spec
    assert thm4 == 82 > 76 >= root[3]
    assert Search(problem).run().cost == 76
    assert root[3] < INF


@pytest.mark.parametrize(("metric", "scheme"), [("lm", "viosa"), ("dm", "allrec"), ("lm", "viorec")])
def test_time_limit_gap_is_proven(metric: str, scheme: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # stopped at once: the best so far is the root, the lower bound comes from the open DFS frame (§5.7's
    # bound alone: with the boxes' recursion the root's bound proves the root optimal before any stop)
    monkeypatch.setattr(boxes, "MAX_POINTS", 0)
    problem, _ = to_problem([EDU, COUNTRY], FIG1, theta(F(1, 3)), metric, scheme)
    best = min(
        c for c in brute_force([EDU, COUNTRY], FIG1, theta(F(1, 3)), metric, scheme).values() if c is not None
    )
    result = Search(problem, time_limit=0.0).run()
    assert result.timed_out and result.cost is not None and result.lower_bound is not None
    assert F(result.lower_bound, result.unit) <= best <= F(result.cost, result.unit)
    assert result.optimal == (result.lower_bound >= result.cost)


def test_boxes_bound_proves_an_l2_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """The l = 2 shape of issue 57 in four rows: the table is 2-diverse, every finer cut holds only
    one-value partitions (all rows deleted). §5.7's root bound sees no deletion and no locked value (0);
    the recursion over the root's boxes sees both children's deletions and proves the root optimal."""
    tax = Tax("Any", {"Any": ["A", "B"], "A": ["a1", "a2"], "B": ["b1", "b2"]})
    rows = [(("a1",), "s1", None), (("a2",), "s1", None), (("b1",), "s2", None), (("b2",), "s2", None)]
    th = {"s1": F(1, 2), "s2": F(1, 2)}
    costs = brute_force([tax], rows, th, "lm", "viorec")
    assert sorted(c for c in costs.values() if c is not None) == [4, 8, 8, 8, 8]  # root: 4 rows × LM 1
    problem, _ = to_problem([tax], rows, th, "lm", "viorec")

    def root_bound() -> F:
        events: list[tuple[str, int, int, int]] = []
        result = Search(problem, trace=lambda *e: events.append(e)).run()
        assert result.cost is not None and F(result.cost, result.unit) == 4
        return F(events[0][3], result.unit)

    assert root_bound() == 4
    monkeypatch.setattr(boxes, "MAX_POINTS", 0)
    assert root_bound() == 0


def test_a_count_of_cuts_beyond_any_integer_reader_is_written_as_its_magnitude() -> None:
    """A QI of 200,000 values under an interval hierarchy has more full-subtree cuts than Python writes as
    digits (4,300): the release's details carry its magnitude, and stay JSON; smaller counts stay exact."""
    import json

    from ldiv_db.algorithms.lplus.publish import _count

    assert _count(25) == 25 and _count(2**2000 + 1) == 2**2000 + 1  # exact while Python writes it
    huge = 42 * 10**5121 + 17
    assert _count(huge) == "about 4.20e+5122"
    assert json.loads(json.dumps({"cuts_total": _count(huge)})) == {"cuts_total": "about 4.20e+5122"}
