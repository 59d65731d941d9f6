"""BSGI's incorporation (Fig. 3) against the straightforward loop it replaced, which prices every residual
row against every class afresh: on random tables with many residual rows (a skewed SA), ties, classes
holding or lacking a row's SA value, secondary SAs, individuals, integer and double costs, both criteria,
shortlists of one or two classes and a price store too small to keep every shortlist, the same class for
every row, the same class costs and sizes, the same counts. And the work: with a store smaller than
every QI combination against every class (as at scale), the classes priced stay about one pass over the
classes per combination, not one per residual row."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi.greedy import incorporate as inc
from ldiv_db.algorithms.bsgi.greedy.select import Engine
from ldiv_db.algorithms.bsgi.greedy.state import GreedyState
from ldiv_db.algorithms.shared.schedule import max_l_schedule

from .test_bsgi_engine import SPECS, Row, build


def reference(self: GreedyState) -> tuple[int, int, int, int]:
    """The placement loop as it stood before the prices were kept between rows."""
    residual = np.flatnonzero(~self.taken)
    k_classes = len(self.class_size)
    if residual.size == 0 or k_classes == 0:
        return int(residual.size), 0, 0, 0
    residual = residual[np.argsort(self.rank[residual])]
    states = inc.state_matrix(self)
    cost = np.array(self.class_cost, dtype=self.dtype)
    size = np.array(self.class_size, dtype=np.int64)
    member_cell = self.row_cell[self.taken]
    member_gid = self.gid[self.taken]
    sa_values = [self.cells.bucket, *self.cells.extra_sa]
    holders: list[dict[int, list[int]]] = []
    for vals in sa_values:
        held: dict[int, list[int]] = {}
        for v, g in zip(vals[member_cell].tolist(), member_gid.tolist(), strict=True):
            held.setdefault(v, []).append(g)
        holders.append(held)
    individual = self.cells.individual
    ind_held: dict[int, list[int]] = {}
    if individual is not None:
        for v, g in zip(individual[member_cell].tolist(), member_gid.tolist(), strict=True):
            ind_held.setdefault(v, []).append(g)
    repeats = ind_repeats = 0
    grown: set[int] = set()
    for p in residual.tolist():
        cell = int(self.row_cell[p])
        new_st, new_cost = inc.merged(self, states, cell)
        if self.criterion == "increase":
            crit = (size + 1) * new_cost - size * cost
        else:
            crit = (size + 1) * new_cost
        sa_conflict = np.zeros(k_classes, dtype=bool)
        for held, vals in zip(holders, sa_values, strict=True):
            sa_conflict[held.get(int(vals[cell]), [])] = True
        ind_conflict = np.zeros(k_classes, dtype=bool)
        if individual is not None:
            ind_conflict[ind_held.get(int(individual[cell]), [])] = True
        cand = ~sa_conflict & ~ind_conflict
        if not cand.any():
            cand = ~ind_conflict
            if not cand.any():
                cand = np.ones(k_classes, dtype=bool)
        idx = np.flatnonzero(cand)
        values = crit[idx]
        best = values.min()
        if values.dtype.kind == "f":
            tol = 1e-12 * max(1.0, abs(float(best)))
            g = int(idx[np.flatnonzero(values <= best + tol)[0]])
        else:
            g = int(idx[int(np.argmin(values))])
        repeats += int(sa_conflict[g])
        ind_repeats += int(ind_conflict[g])
        grown.add(g)
        self.gid[p] = g
        self.taken[p] = True
        states[g] = new_st[g]
        cost[g] = new_cost[g]
        size[g] += 1
        for held, vals in zip(holders, sa_values, strict=True):
            held.setdefault(int(vals[cell]), []).append(g)
        if individual is not None:
            ind_held.setdefault(int(individual[cell]), []).append(g)
    self.class_cost = cost.tolist()
    self.class_size = size.tolist()
    return int(residual.size), repeats, ind_repeats, len(grown)


@st.composite
def skewed(draw: Any) -> tuple[list[Row], int, list[int] | None, list[str] | None]:
    """Rows whose SA is mostly one value (many residual rows), over small QI domains (many ties)."""
    n = draw(st.integers(4, 90))
    common = draw(st.sampled_from([0.0, 0.5, 0.8, 0.95]))
    rnd = draw(st.randoms(use_true_random=False))
    rows: list[Row] = []
    for rid in range(n):
        sa = "P" if rnd.random() < common else rnd.choice("QRSTU")
        rows.append(
            (rid, sa, (rnd.choice("abcdef"), rnd.randint(20, 23), rnd.choice("xyz"), rnd.choice("FM")))
        )
    l_value = draw(st.integers(2, 3))
    for k in range(l_value):
        rows.append((len(rows), "PQRSTU"[k], ("a", 20, "x", "F")))
    individuals = [rnd.randrange(max(2, len(rows) // 2)) for _ in rows] if draw(st.booleans()) else None
    second = [rnd.choice("uvw") for _ in rows] if draw(st.booleans()) else None
    return rows, l_value, individuals, second


@pytest.mark.parametrize(
    ("limit", "shortlist"),
    [(inc.PRICE_LIMIT, inc.SHORTLIST), (3, inc.SHORTLIST), (inc.PRICE_LIMIT, 1), (inc.PRICE_LIMIT, 2)],
)
@settings(max_examples=150, deadline=None)
@given(skewed(), st.sampled_from(["merged", "increase"]), st.booleans(), st.booleans())
def test_incorporation_places_every_row_as_the_plain_loop(
    limit: int,
    shortlist: int,
    table: tuple[list[Row], int, list[int] | None, list[str] | None],
    criterion: str,
    halves: bool,
    variant: bool,
) -> None:
    rows, l_value, individuals, second = table
    cells, model = build(rows, SPECS, extra=[second] if second else (), individual=individuals, halves=halves)
    sizes = np.bincount(cells.bucket, weights=np.diff(np.append(cells.cell_start, cells.n))).astype(int)
    engines = []
    for _ in range(2):
        eng = Engine(cells, model, l_value, criterion=criterion)
        if variant or individuals is not None or second is not None:
            eng.select_variant()
        else:
            eng.select(max_l_schedule(sizes.tolist(), l_value))
        engines.append(eng)
    old, new = engines
    expected = reference(old)
    saved = inc.PRICE_LIMIT, inc.SHORTLIST
    inc.PRICE_LIMIT, inc.SHORTLIST = limit, shortlist
    try:
        got = inc.incorporate(new)
    finally:
        inc.PRICE_LIMIT, inc.SHORTLIST = saved
    assert got == expected
    assert new.gid.tolist() == old.gid.tolist()
    assert new.class_size == old.class_size
    assert new.class_cost == old.class_cost
    assert [type(c) for c in new.class_cost] == [type(c) for c in old.class_cost]


@pytest.mark.parametrize("criterion", ["merged", "increase"])
def test_incorporation_prices_each_combination_about_once(
    criterion: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,200 residual rows of 35 QI combinations into 900 classes, the store holding 10 entries per class:
    the plain loop would price 1,080,000 classes; the bound is two passes over the classes per combination
    and 32 classes per row."""
    n, combinations = 3000, 35
    rows = [(i, "common" if i % 10 < 7 else f"v{i % 97}", (i % 7, (i * 3) % 5)) for i in range(n)]
    cells, model = build(rows, [("numeric", None), ("numeric", None)])
    sizes = np.bincount(cells.bucket, weights=np.diff(np.append(cells.cell_start, cells.n))).astype(int)
    eng = Engine(cells, model, 2, criterion=criterion)
    eng.select(max_l_schedule(sizes.tolist(), 2))
    k_classes = len(eng.class_size)
    priced: list[int] = []
    plain = inc.merged

    def counting(self: GreedyState, states: Any, cell: int) -> Any:
        priced.append(len(states))
        return plain(self, states, cell)

    monkeypatch.setattr(inc, "merged", counting)
    monkeypatch.setattr(inc, "PRICE_LIMIT", 10 * k_classes)
    residual = inc.incorporate(eng)[0]
    assert (k_classes, residual) == (900, 1200)
    assert sum(priced) <= 2 * combinations * k_classes + 32 * residual
