"""TP's decision core on count vectors (SPEC §1.4-1.9, §1.11): the worked examples E-TP2 and E-TP3,
the closed form of phase one, and property tests against a brute-force optimum."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from fixtures.papers import read_table
from ldiv_db.algorithms.tp.core import (
    Counts,
    TpOutcome,
    h_star,
    h_star_iterative,
    l_eligible,
    phase_one,
    tp_counts,
)
from ldiv_db.errors import InternalError


def vec(*counts: int) -> Counts:
    """A count vector over SA ids 1..m, zeros dropped."""
    return {v: c for v, c in enumerate(counts, start=1) if c}


def as_tuple(q: Counts, m: int) -> tuple[int, ...]:
    return tuple(q.get(v, 0) for v in range(1, m + 1))


def groups_from_fixture(name: str) -> list[Counts]:
    df = read_table(name)
    out: dict[str, Counts] = {}
    for rec in df.itertuples():
        q = out.setdefault(str(rec.group), {})
        if int(rec.count):
            q[int(rec.value)] = int(rec.count)
    return [out[k] for k in sorted(out)]


# ------------------------------------------------------------------------------------------ worked examples


def test_e_tp2_phase_two() -> None:
    """SPEC §1.11 E-TP2: Q3 emptied in phase one; three phase-two iterations; |R| = 9 = OPT."""
    groups = groups_from_fixture("tp_example2_counts")
    assert [as_tuple(q, 5) for q in groups] == [(3, 1, 1, 2, 3), (1, 0, 1, 2, 2), (3, 2, 0, 0, 0)]
    kept, r1 = phase_one(groups, 3)
    assert [as_tuple(q, 5) for q in kept] == [(3, 1, 1, 2, 3), (1, 0, 1, 2, 2), (0, 0, 0, 0, 0)]
    assert as_tuple(r1, 5) == (3, 2, 0, 0, 0)
    out = tp_counts(groups, 3)
    assert out.phase == 2
    assert out.residue_rows == 9 == brute_force_opt(groups, 3)
    assert as_tuple(out.residue, 5) == (3, 2, 2, 1, 1)
    assert [as_tuple(q, 5) for q in out.kept] == [(3, 1, 0, 2, 3), (1, 0, 0, 1, 1), (0, 0, 0, 0, 0)]
    # iteration 1 moves a 3 from Q1; iterations 2-3 move a 4, a 5 and a 3 from Q2
    assert out.moved == [{3: 1}, {3: 1, 4: 1, 5: 1}, {}]


def test_e_tp3_phase_three() -> None:
    """SPEC §1.11 E-TP3: both groups dead after phase one; greedy picks Q1 then Q2; then a 3 and a 4."""
    groups = groups_from_fixture("tp_example3_counts")
    assert [as_tuple(q, 5) for q in groups] == [(2, 0, 2, 1, 1), (1, 2, 0, 2, 1), (3, 3, 0, 0, 0)]
    out = tp_counts(groups, 3)
    assert out.phase == 3
    assert as_tuple(out.residue_after_phase_one, 5) == (3, 3, 0, 0, 0)
    assert out.residue_rows == 12 == brute_force_opt(groups, 3)
    assert as_tuple(out.residue, 5) == (4, 4, 2, 2, 0)
    assert [as_tuple(q, 5) for q in out.kept] == [(1, 0, 0, 1, 1), (1, 1, 0, 0, 1), (0, 0, 0, 0, 0)]
    assert out.moved == [{1: 1, 3: 2}, {2: 1, 4: 2}, {}]


def test_phase_one_optimal_and_empty_residue() -> None:
    out = tp_counts([vec(1, 1), vec(2, 2)], 2)
    assert out.phase == 1 and out.residue_rows == 0
    out = tp_counts([vec(2), vec(0, 2), vec(1, 1)], 2)  # two groups emptied, R = {1,1,2,2} eligible
    assert out.phase == 1 and as_tuple(out.residue, 2) == (2, 2)


def test_not_eligible_table_is_refused() -> None:
    with pytest.raises(ValueError, match="not 3-eligible"):
        tp_counts([vec(3, 1, 1)], 3)


# ------------------------------------------------------------------------------------------ phase one


@given(
    st.dictionaries(st.integers(1, 8), st.integers(0, 9), max_size=8),
    st.integers(2, 6),
)
def test_h_star_closed_form_matches_the_iterative_rule(counts: dict[int, int], l: int) -> None:
    """SPEC §1.4: capping at H* equals 'remove a row from every pillar until eligible'."""
    cap = h_star(counts, l)
    capped = {v: min(c, cap) for v, c in counts.items() if min(c, cap) > 0}
    assert capped == h_star_iterative(counts, l)
    assert l_eligible(capped, l)


def test_h_star_values() -> None:
    assert h_star([3, 1, 1, 2, 3], 3) == 3  # E-TP2 Q1 unchanged
    assert h_star([3, 2], 3) == 0  # fewer than l values: emptied
    assert h_star([5, 1, 1], 2) == 2  # cap 2: (2,1,1) is 2-eligible, (3,1,1) is not
    assert h_star([], 2) == 0


# ------------------------------------------------------------------------------------------ brute force


def brute_force_opt(groups: Sequence[Counts], l: int) -> int:
    """The fewest rows any solution moves to R (SPEC §1.2), by dynamic programming over the achievable
    vectors of kept counts (each group keeps any l-eligible sub-multiset, or nothing), encoded in mixed
    radix so that adding vectors is adding integers."""
    values = sorted({v for q in groups for v in q})
    total = np.array([sum(q.get(v, 0) for q in groups) for v in values], dtype=np.int64)
    radix = np.cumprod(np.concatenate(([1], total[:-1] + 1))).astype(np.int64)
    states = np.zeros(1, dtype=np.int64)
    for q in groups:
        kept = np.array(list(itertools.product(*(range(q.get(v, 0) + 1) for v in values))), dtype=np.int64)
        kept = kept[l * kept.max(axis=1) <= kept.sum(axis=1)]
        states = np.unique((states[:, None] + (kept @ radix)[None, :]).ravel())
    digits = (states[:, None] // radix[None, :]) % (total + 1)[None, :]
    residue = total[None, :] - digits
    ok = l * residue.max(axis=1) <= residue.sum(axis=1)
    return int(residue.sum(axis=1)[ok].min())


def check_outcome(groups: Sequence[Counts], l: int, out: TpOutcome) -> None:
    """Rows are conserved, every group and R are l-eligible, moves add up."""
    assert l_eligible(out.residue, l)
    for q, kept, moved in zip(groups, out.kept, out.moved, strict=True):
        assert l_eligible(kept, l)
        for v, c in q.items():
            assert 0 <= kept.get(v, 0) <= c
        assert all(c > 0 for c in moved.values())
    for v in {v for q in groups for v in q}:
        assert sum(q.get(v, 0) for q in groups) == sum(k.get(v, 0) for k in out.kept) + out.residue.get(v, 0)


small_tables = st.integers(2, 4).flatmap(
    lambda l: st.tuples(
        st.just(l),
        st.integers(l, 4).flatmap(
            lambda m: st.lists(
                st.lists(st.integers(0, 3), min_size=m, max_size=m).map(lambda c: vec(*c)),
                min_size=1,
                max_size=3,
            )
        ),
    )
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_tables)
def test_guarantees_against_brute_force(case: tuple[int, list[Counts]]) -> None:
    """SPEC §1.9: phase one ⇒ |R| = OPT; phase two ⇒ |R| ≤ OPT + l − 1; always |R| ≤ l·OPT;
    never phase three for l = 2."""
    l, groups = case
    total: Counts = {}
    for q in groups:
        for v, c in q.items():
            total[v] = total.get(v, 0) + c
    assume(total and l_eligible(total, l))
    out = tp_counts(groups, l)
    event(f"phase {out.phase}")
    check_outcome(groups, l, out)
    opt = brute_force_opt(groups, l)
    r = out.residue_rows
    assert r >= opt
    if out.phase == 1:
        assert r == opt
    if out.phase == 2:
        assert r <= opt + l - 1
    assert r <= l * opt
    if l == 2:
        assert out.phase != 3
    # Cor. 5.10: OPT ≥ l·h(R¹), and OPT ≥ |R¹| (Lemma 5.8)
    r1 = out.residue_after_phase_one
    assert opt >= max(sum(r1.values()), l * max(r1.values(), default=0))


@st.composite
def dead_tables(draw: st.DrawFn) -> tuple[int, list[Counts]]:
    """E-TP3's shape, randomized (l = 3): a two-value group phase one empties, so R has the pillars
    {1, 2}; beside it thin groups whose pillars include 1 or 2, i.e. dead from the start."""
    l = 3
    tall = draw(st.integers(1, 3))
    groups: list[Counts] = []
    for _ in range(draw(st.integers(1, 3))):
        h = draw(st.integers(1, 2))
        q = {draw(st.sampled_from([1, 2])): h}
        rest = l * h - h
        for v in (3, 4, 5, 1, 2):
            if rest and v not in q:
                c = draw(st.integers(0, min(h, rest)))
                if c:
                    q[v] = c
                    rest -= c
        assume(rest == 0)
        groups.append(q)
    return l, [*groups, {1: tall, 2: tall}]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(dead_tables())
def test_guarantees_on_dead_groups(case: tuple[int, list[Counts]]) -> None:
    """Tables where phases two and three have work: valid outcomes within l·OPT (SPEC §1.9)."""
    l, groups = case
    total: Counts = {}
    for q in groups:
        for v, c in q.items():
            total[v] = total.get(v, 0) + c
    assume(l_eligible(total, l))
    out = tp_counts(groups, l)
    event(f"phase {out.phase}")
    check_outcome(groups, l, out)
    opt = brute_force_opt(groups, l)
    assert opt <= out.residue_rows <= l * opt
    if out.phase == 2:
        assert out.residue_rows <= opt + l - 1


def test_phase_three_is_reached_and_valid() -> None:
    """A family of E-TP3-like tables: each ends in phase three with a valid, near-optimal residue."""
    seen = 0
    for a, b in itertools.product(range(1, 3), repeat=2):
        groups = [vec(2, 0, 2, a, 1), vec(1, 2, 0, 2, b), vec(3, 3)]
        out = tp_counts(groups, 3)
        check_outcome(groups, 3, out)
        opt = brute_force_opt(groups, 3)
        assert opt <= out.residue_rows <= 3 * opt
        seen += out.phase == 3
    assert seen


def test_internal_error_on_stuck_phase_three() -> None:
    """The safety net of SPEC §1.6: a state no greedy cover exists for is an internal error."""
    from ldiv_db.algorithms.tp.core import phases_two_three

    with pytest.raises(InternalError):
        # R = (2,2) with no group at all: never eligible for l = 3, nothing to move
        phases_two_three([], {1: 2, 2: 2}, 3)
