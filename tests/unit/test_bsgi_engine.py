"""BSGI's greedy engine against a literal pure-Python reading of SPEC §2.2 (Fractions, no numpy), on
random small tables: the exact mode must give the same classes; the fast (wave, windowed) mode must give
a valid result with the same number of classes and residuals; the variants must respect their rules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi import locality_keys, parse_weights
from ldiv_db.algorithms.bsgi.greedy import waves
from ldiv_db.algorithms.bsgi.greedy.cells import DEAD
from ldiv_db.algorithms.bsgi.greedy.cost import Attribute, CostModel, Tree
from ldiv_db.algorithms.bsgi.greedy.select import Cells, Engine
from ldiv_db.algorithms.bsgi.refine import exchange as refine
from ldiv_db.algorithms.bsgi.refine import starts
from ldiv_db.algorithms.shared.schedule import max_l_schedule
from ldiv_db.errors import BadInput
from ldiv_db.taxonomy import Hierarchy

H_CITY = Hierarchy(
    [
        ["a", "ab", "*"],
        ["b", "ab", "*"],
        ["c", "cde", "*"],
        ["d", "cde", "*"],
        ["e", "cde", "*"],
        ["f", "f", "*"],
    ]
)
H_SEX = Hierarchy([["F", "*"], ["M", "*"]])
SPECS: list[tuple[str, Hierarchy | None]] = [
    ("hierarchy", H_CITY),
    ("numeric", None),
    ("flat", None),
    ("hierarchy", H_SEX),
]

Row = tuple[int, str, tuple[Any, ...]]  # (rid, SA, QI values)


def tree_of(h: Hierarchy) -> Tree:
    return Tree(h.arrays)


def build(
    rows: Sequence[Row],
    specs: Sequence[tuple[str, Hierarchy | None]],
    weights: Sequence[Fraction] | None = None,
    extra: Sequence[Sequence[Any]] = (),
    individual: Sequence[Any] | None = None,
    orders: int = 1,
    halves: bool = False,
) -> tuple[Cells, CostModel]:
    """What sql/bsgi/codes.sql + cells.sql compute, in Python (rows must be sorted by rid)."""
    d = len(specs)
    fa: dict[Any, int] = {}
    for _, sa, _ in rows:
        fa.setdefault(sa, len(fa))
    attrs, columns = [], []
    for i, (kind, h) in enumerate(specs):
        vals = [r[2][i] for r in rows]
        w = Fraction(1) if weights is None else weights[i]
        if kind == "hierarchy":
            assert h is not None
            columns.append([h.node_id(v) for v in vals])
            attrs.append(Attribute(f"q{i}", "hierarchy", w, tree=tree_of(h)))
        else:
            domain = sorted(set(vals))
            columns.append([domain.index(v) for v in vals])
            if kind == "numeric":
                values = np.array(domain, dtype=np.float64 if halves else np.int64) + (0.5 if halves else 0)
                attrs.append(
                    Attribute(
                        f"q{i}", "numeric", w, lo=values[0], hi=values[-1], integral=not halves, values=values
                    )
                )
            else:
                attrs.append(Attribute(f"q{i}", "flat", w))
    extra_codes = []
    for col in extra:
        first: dict[Any, int] = {}
        for v in col:
            first.setdefault(v, len(first))
        extra_codes.append([first[v] for v in col])
    ind_codes = None
    if individual is not None:
        first = {}
        for v in individual:
            first.setdefault(v, len(first))
        ind_codes = [first[v] for v in individual]
    keyed = []
    for k, (rid, sa, _) in enumerate(rows):
        cell_key = (fa[sa], *(c[k] for c in columns), *(c[k] for c in extra_codes))
        if ind_codes is not None:
            cell_key = (*cell_key, ind_codes[k])
        keyed.append((cell_key, rid, k))
    keyed.sort()
    cell_keys = sorted({ck for ck, _, _ in keyed})
    index = {ck: i for i, ck in enumerate(cell_keys)}
    starts, seen = [], set()
    for pos, (ck, _, _) in enumerate(keyed):
        if ck not in seen:
            seen.add(ck)
            starts.append(pos)
    codes = [np.array([ck[1 + i] for ck in cell_keys], dtype=np.int64) for i in range(d)]
    cells = Cells(
        rid=np.array([rid for _, rid, _ in keyed], dtype=np.int64),
        cell_start=np.array(starts, dtype=np.int64),
        bucket=np.array([ck[0] for ck in cell_keys], dtype=np.int64),
        key=np.zeros(len(cell_keys), dtype=np.int64),
        codes=codes,
        extra_sa=[np.array([ck[1 + d + j] for ck in cell_keys], dtype=np.int64) for j in range(len(extra))],
        individual=np.array([ck[-1] for ck in cell_keys], dtype=np.int64) if ind_codes is not None else None,
    )
    assert all(index[ck] == i for i, ck in enumerate(cell_keys))
    base = list(range(d))
    cells.key = locality_keys(codes, [base[r:] + base[:r] for r in range(min(orders, d))])
    return cells, CostModel(attrs)


def classes_of(cells: Cells, gid: np.ndarray) -> list[list[int]]:
    out: dict[int, list[int]] = {}
    for rid, g in zip(cells.rid.tolist(), gid.tolist(), strict=True):
        out.setdefault(g, []).append(rid)
    return [sorted(out[g]) for g in sorted(out)]


def reference(
    rows: Sequence[Row],
    specs: Sequence[tuple[str, Hierarchy | None]],
    l: int,
    criterion: str = "merged",
    weights: Sequence[Fraction] | None = None,
) -> list[list[int]]:
    """SPEC §2.2 read literally: Max-l with FA ties, smallest-rid seed, argmin (IL, rid), Fig. 3."""
    w = list(weights) if weights is not None else [Fraction(1)] * len(specs)
    by_rid = {rid: (sa, vals) for rid, sa, vals in rows}
    fa: dict[Any, int] = {}
    for _, sa, _ in sorted(rows):
        fa.setdefault(sa, len(fa))
    spans = []
    for i, (kind, _) in enumerate(specs):
        vals = [r[2][i] for r in rows]
        spans.append(max(vals) - min(vals) if kind == "numeric" else 0)

    def ncp(rids: list[int]) -> Fraction:
        total = Fraction(0)
        for i, (kind, h) in enumerate(specs):
            vs = [by_rid[r][1][i] for r in rids]
            if kind == "hierarchy":
                assert h is not None
                u = h.lca_many(vs)
                total += w[i] * (0 if h.is_leaf(u) else Fraction(h.n_leaves(u), h.domain_size))
            elif kind == "numeric":
                total += w[i] * (Fraction(max(vs) - min(vs), spans[i]) if spans[i] else 0)
            else:
                total += w[i] * (1 if len(set(vs)) > 1 else 0)
        return total

    buckets = {v: sorted(r for r, s, _ in rows if s == v) for v in fa}
    classes: list[list[int]] = []
    while sum(1 for b in buckets.values() if b) >= l:
        order = sorted((v for v in fa if buckets[v]), key=lambda v: (-len(buckets[v]), fa[v]))[:l]
        e = [buckets[order[0]].pop(0)]
        for v in order[1:]:
            best = min(buckets[v], key=lambda r: ((len(e) + 1) * ncp([*e, r]), r))
            buckets[v].remove(best)
            e.append(best)
        classes.append(e)
    for t in sorted(r for b in buckets.values() for r in b):
        sa = by_rid[t][0]
        cand = [k for k, e in enumerate(classes) if sa not in {by_rid[r][0] for r in e}] or list(
            range(len(classes))
        )

        def crit(k: int, t: int = t) -> Fraction:
            merged = (len(classes[k]) + 1) * ncp([*classes[k], t])
            return merged if criterion == "merged" else merged - len(classes[k]) * ncp(classes[k])

        classes[min(cand, key=lambda k: (crit(k), k))].append(t)
    return [sorted(e) for e in classes]


def random_rows(draw: Any, n_min: int, n_max: int, sa_max: int) -> list[Row]:
    n = draw(st.integers(n_min, n_max))
    rows = []
    for rid in range(n):
        rows.append(
            (
                rid,
                draw(st.sampled_from("PQRSTU"[:sa_max])),
                (
                    draw(st.sampled_from("abcdef")),
                    draw(st.integers(20, 30)),
                    draw(st.sampled_from(["x", "y", "z"])),
                    draw(st.sampled_from("FM")),
                ),
            )
        )
    return rows


@st.composite
def tables(draw: Any) -> tuple[list[Row], int]:
    rows = random_rows(draw, 2, 14, 5)
    l_value = draw(st.integers(2, 3))
    if len({r[1] for r in rows}) < l_value:
        rows.append((len(rows), "Z", ("a", 20, "x", "F")))
        rows.append((len(rows), "Y", ("b", 21, "y", "M")))
    return rows, l_value


@settings(max_examples=120, deadline=None)
@given(tables(), st.sampled_from(["merged", "increase"]), st.booleans())
def test_exact_engine_matches_the_reference(
    table: tuple[list[Row], int], criterion: str, weighted: bool
) -> None:
    rows, l_value = table
    weights = [Fraction(1), Fraction(2), Fraction(1, 2), Fraction(3)] if weighted else None
    cells, model = build(rows, SPECS, weights)
    sizes = np.bincount(cells.bucket, weights=np.diff(np.append(cells.cell_start, cells.n))).astype(int)
    result = Engine(cells, model, l_value, criterion=criterion).run(max_l_schedule(sizes.tolist(), l_value))
    assert classes_of(cells, result.gid) == reference(rows, SPECS, l_value, criterion, weights)


@st.composite
def bigger(draw: Any) -> tuple[list[Row], int]:
    rows = random_rows(draw, 20, 80, 6)
    l_value = draw(st.integers(2, 4))
    for k in range(l_value):
        rows.append((len(rows), "PQRSTU"[k], ("a", 20, "x", "F")))
    return rows, l_value


@settings(max_examples=60, deadline=None)
@given(bigger(), st.integers(1, 3), st.integers(1, 7), st.integers(1, 3), st.booleans())
def test_wave_mode_is_valid(
    table: tuple[list[Row], int], window: int, batch: int, orders: int, halves: bool
) -> None:
    """Fast mode: as many classes and residuals as Max-l, every row in one class, every selected class
    exactly l distinct SA values, residuals only where they add a new value when one is possible; with
    integer costs and with doubles (a numeric QI of non-integer values)."""
    rows, l_value = table
    cells, model = build(rows, SPECS, orders=orders, halves=halves)
    assert model.exact != halves
    sizes = np.bincount(cells.bucket, weights=np.diff(np.append(cells.cell_start, cells.n))).astype(int)
    sch = max_l_schedule(sizes.tolist(), l_value)
    result = Engine(cells, model, l_value, window=window).run(sch, batch=batch)
    assert result.classes == sch.classes and result.residual_rows == sch.residual_rows
    assert (result.gid >= 0).all()
    sa_of = {rid: sa for rid, sa, _ in rows}
    for members in classes_of(cells, result.gid):
        values = [sa_of[r] for r in members]
        assert len(set(values)) >= l_value
        assert len(members) <= l_value + result.residual_rows
    if l_value * max(sizes) <= sum(sizes):  # l-Property (1): no repeats (SPEC §2.3 Cor. 2)
        assert result.residual_repeats == 0
    exact = Engine(cells, model, l_value).run(sch)
    assert exact.classes == result.classes


@settings(max_examples=40, deadline=None)
@given(bigger(), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.randoms(use_true_random=False))
def test_wave_compaction_equals_sorting_the_live_cells_afresh(
    table: tuple[list[Row], int], window: int, orders: int, coarse: int, rnd: random.Random
) -> None:
    """A compaction of the waves' live cells filters each order instead of sorting the live cells again:
    after every compaction each order, its keys, positions, head keys and codes are those of the live
    cells sorted afresh by (bucket, key, cell id) — with tied keys too (keys coarsened)."""
    rows, l_value = table
    cells, model = build(rows, SPECS, orders=orders)
    cells.key = cells.key // coarse  # ties within a bucket: broken by cell id
    eng = Engine(cells, model, l_value, window=window)
    live = waves._Live(eng, window)
    keys = cells.key.reshape(cells.n_cells, -1)
    for _ in range(4):
        dead = [c for c in range(cells.n_cells) if rnd.random() < 0.3]
        eng.head_key[dead] = DEAD
        live.compact()
        alive = np.flatnonzero(eng.head_key < DEAD)
        assert live.size == len(alive)
        width = 2 * window
        for k in range(keys.shape[1]):
            ref = alive[np.lexsort((keys[alive, k], cells.bucket[alive]))]
            at = int(live.base[k])
            assert live.cells[at : at + len(ref)].tolist() == ref.tolist()
            assert (live.cells[at + len(ref) : at + len(ref) + width] == -1).all()
            assert live.gkeys[k].tolist() == (cells.bucket[ref] * live.kmax + keys[ref, k]).tolist()
            pos = np.full(cells.n_cells, -1)
            pos[ref] = np.arange(len(ref))
            assert live.pos[k].tolist() == pos.tolist()
        real = live.cells >= 0
        at_ = np.maximum(live.cells, 0)
        assert live.hp.tolist() == np.where(real, eng.head_key[at_], DEAD).tolist()
        for i, c in enumerate(cells.codes):
            assert live.codes[:, i].tolist() == np.where(real, c[at_], 0).tolist()
        bucket = np.sort(cells.bucket[alive])
        assert live.off.tolist() == np.searchsorted(bucket, np.arange(eng.m + 1)).tolist()


def test_reference_reproduces_the_paper_example() -> None:
    """SPEC §2.5 with the reference itself, so that the engine tests rest on a checked oracle."""
    rows: list[Row] = [
        (1, "Cancer", ("F", "10075", 50)),
        (2, "Obesity", ("M", "10075", 50)),
        (3, "Flu", ("M", "10076", 30)),
        (4, "Cancer", ("F", "10075", 40)),
        (5, "Flu", ("F", "10077", 20)),
        (6, "Obesity", ("F", "10077", 25)),
        (7, "Obesity", ("M", "10076", 25)),
    ]
    post = Hierarchy([["10075", "1007*", "*"], ["10076", "1007*", "*"], ["10077", "1007*", "*"]])
    specs: list[tuple[str, Hierarchy | None]] = [("hierarchy", H_SEX), ("hierarchy", post), ("numeric", None)]
    expected = [[1, 2], [5, 6], [3, 4, 7]]
    assert reference(rows, specs, 2) == expected
    assert reference(rows, specs, 2, "increase") == expected
    cells, model = build(rows, specs)
    for window, batch in ((None, None), (1, 2)):
        result = Engine(cells, model, 2, window=window).run(max_l_schedule([2, 3, 2], 2), batch=batch)
        if window is None:
            assert classes_of(cells, result.gid) == expected
            assert model.ncp(result.il_scaled) == Fraction(59, 6)


def test_random_first_pick_is_seeded() -> None:
    rng = random.Random(5)
    rows: list[Row] = [
        (i, "PQRS"[rng.randrange(4)], ("abcdef"[rng.randrange(6)], rng.randrange(20, 40), "x", "FM"[i % 2]))
        for i in range(60)
    ]
    cells, model = build(rows, SPECS)
    sizes = np.bincount(cells.bucket, weights=np.diff(np.append(cells.cell_start, cells.n))).astype(int)
    sch = max_l_schedule(sizes.tolist(), 2)
    runs = [
        classes_of(cells, Engine(cells, model, 2, rng=random.Random(seed)).run(sch).gid) for seed in (1, 1, 2)
    ]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    waves = Engine(cells, model, 2, window=2, rng=random.Random(1)).run(sch, batch=4)
    assert waves.classes == sch.classes


@settings(max_examples=60, deadline=None)
@given(bigger(), st.booleans(), st.sampled_from([None, 2]))
def test_variants_keep_individuals_and_secondary_sa_apart(
    table: tuple[list[Row], int], two_sa: bool, window: int | None
) -> None:
    """SPEC §2.4: in selected classes, no individual twice and every SA pairwise different."""
    rows, l_value = table
    rng = random.Random(len(rows))
    individuals = [rng.randrange(max(2, len(rows) // 3)) for _ in rows]
    second = [rng.choice("uvwxyz") for _ in rows]
    cells, model = build(rows, SPECS, extra=[second] if two_sa else (), individual=individuals)
    engine = Engine(cells, model, l_value, window=window)
    engine.select_variant()
    by_rid = {rid: k for k, (rid, _, _) in enumerate(rows)}
    selected = classes_of(cells, engine.gid)
    for members in selected:
        if -1 in engine.gid[np.isin(cells.rid, members)]:
            continue
        ks = [by_rid[r] for r in members]
        assert len(members) == l_value
        assert len({individuals[k] for k in ks}) == l_value
        assert len({rows[k][1] for k in ks}) == l_value
        if two_sa:
            assert len({second[k] for k in ks}) == l_value
    engine.incorporate()
    assert (engine.gid >= 0).all() or not engine.class_size


def test_locality_keys_sort_lexicographically() -> None:
    codes = [np.array([2, 0, 1, 1, 0]), np.array([0, 5, 3, 3, 4])]
    for keys in (locality_keys(codes, [[0, 1]]), locality_keys([c * 2**40 for c in codes], [[0, 1]])):
        assert list(np.argsort(keys, kind="stable")) == [4, 1, 2, 3, 0]
        assert keys[2] == keys[3]
    both = locality_keys(codes, [[0, 1], [1, 0]])
    assert both.shape == (5, 2)
    assert list(np.argsort(both[:, 1], kind="stable")) == [0, 2, 3, 4, 1]


def test_cost_model_is_exact() -> None:
    attrs = [
        Attribute("city", "hierarchy", Fraction(1), tree=tree_of(H_CITY)),
        Attribute("age", "numeric", Fraction(2), lo=20, hi=93, values=np.arange(20, 94)),
        Attribute("flat", "flat", Fraction(1, 3)),
    ]
    model = CostModel(attrs)
    assert model.exact
    # city 'cde' (3 of 6 leaves) + 2·(10/73) + 1/3
    cost = attrs[0].node_cost[H_CITY.node_id("cde")] + 10 * attrs[1].unit + attrs[2].unit  # type: ignore[index]
    assert model.ncp(cost) == Fraction(3, 6) + 2 * Fraction(10, 73) + Fraction(1, 3)
    inexact = CostModel([Attribute("x", "numeric", Fraction(1), lo=0.5, hi=2.25, integral=False)])
    assert not inexact.exact


def test_parse_weights() -> None:
    qi = ["age", "sex", "zip"]
    assert parse_weights("1,1,2", qi) == [1, 1, 2]
    assert parse_weights("SEX=0.5", qi) == [1, Fraction(1, 2), 1]
    assert parse_weights(None, qi) == [1, 1, 1]
    for bad in ("1,2", "height=2", "0,0,0", "a,b,c"):
        try:
            parse_weights(bad, qi)
        except BadInput as exc:
            assert exc.hint or exc.message
        else:
            raise AssertionError(f"{bad!r} accepted")


@settings(max_examples=40, deadline=None)
@given(bigger(), st.booleans())
def test_refiner_keeps_small_codes_narrow_and_refines_alike(
    table: tuple[list[Row], int], twice: bool
) -> None:
    """The refiner keeps taxonomy node ids and flat codes 32-bit (numeric codes, raw values whose
    differences it takes, as they are) and refines exactly as with 64-bit codes: the same classes, the
    same exchanges; with every row twice (cells of several rows) too."""
    rows, l_value = table
    if twice:
        rows = [(i, sa, vals) for i, (_, sa, vals) in enumerate(r for r in rows for _ in range(2))]
    cells, model = build(rows, SPECS)
    sizes = np.bincount(cells.bucket, weights=np.diff(np.append(cells.cell_start, cells.n))).astype(int)
    greedy = Engine(cells, model, l_value).run(max_l_schedule(sizes.tolist(), l_value))
    narrow = starts.refiner_for(cells, model, cells.key)
    assert [a.codes.dtype for a in narrow.attrs] == [
        np.dtype(np.int64 if kind == "numeric" else np.int32) for kind, _ in SPECS
    ]
    rows_of = np.repeat(np.arange(cells.n_cells), np.diff(np.append(cells.cell_start, cells.n)))
    wide = refine.Refiner(
        model, [c[rows_of] for c in cells.codes], [cells.bucket[rows_of]], cells.key[rows_of]
    )
    a, b = narrow.run(greedy.gid), wide.run(greedy.gid)
    assert np.array_equal(a.gid, b.gid) and (a.il_after, a.moves) == (b.il_after, b.moves)


def test_cells_keep_no_view_of_the_other_fetched_columns() -> None:
    """Memory at scale: of the fetched columns (ordered by cell, row id) the cells keep the row ids and
    new arrays of each cell's first row, no view that would keep a whole fetched column alive through the
    run (at 1M rows, 8 MB a column)."""
    from ldiv_db.algorithms.bsgi import _cells
    from ldiv_db.sqlgen.render import Ident

    columns = {
        "cell": np.array([0, 0, 1, 2, 2, 2], dtype=np.int64),
        "rid": np.array([5, 9, 1, 0, 3, 7], dtype=np.int64),
        "b": np.array([0, 0, 1, 0, 0, 0], dtype=np.int64),
        "q1": np.array([4, 4, 2, 8, 8, 8], dtype=np.int64),
        "q2": np.array([1, 1, 1, 0, 0, 0], dtype=np.int64),
        "s2": np.array([3, 3, 2, 1, 1, 1], dtype=np.int64),
        "ind": np.array([6, 6, 5, 4, 4, 4], dtype=np.int64),
    }
    cells = _cells(columns, 2, [Ident("s2")], True)
    assert cells.rid.tolist() == [5, 9, 1, 0, 3, 7] and cells.cell_start.tolist() == [0, 2, 3]
    assert cells.bucket.tolist() == [0, 1, 0] and [c.tolist() for c in cells.codes] == [[4, 2, 8], [1, 1, 0]]
    assert cells.extra_sa[0].tolist() == [3, 2, 1] and cells.individual is not None
    assert cells.individual.tolist() == [6, 5, 4]
    kept = [cells.bucket, *cells.codes, *cells.extra_sa, cells.individual]
    assert not any(np.shares_memory(a, c) for a in kept for c in columns.values())


def _settle_by_walk(cand: np.ndarray, alive: np.ndarray, room: np.ndarray) -> list[int]:
    """The settling as waves._pick_step states it: in class order, the first live ranked cell with a row
    left after the classes before took theirs."""
    left: dict[int, int] = {}
    got = []
    for k in range(len(cand)):
        took = -1
        for r in range(cand.shape[1]):
            if not alive[k, r]:
                break
            c = int(cand[k, r])
            if left.get(c, int(room[k, r])) > 0:
                left[c] = left.get(c, int(room[k, r])) - 1
                took = c
                break
        got.append(took)
    return got


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 5),
    st.integers(1, 12),
    st.floats(0.0, 0.3),
    st.randoms(use_true_random=False),
)
def test_settling_takes_the_cells_the_walk_takes(
    q: int, top: int, cells: int, dead: float, rnd: random.Random
) -> None:
    """waves._settle (first choices at once up to the first class whose first cell is dead or emptied,
    then the walk) gives every class the cell the plain walk in class order gives it — with first cells
    shared by more classes than they have rows, and dead candidates."""
    cand = np.array([rnd.sample(range(cells + top), top) for _ in range(q)], dtype=np.int64)
    rows_left = np.array([rnd.randint(1, 3) for _ in range(cells + top)], dtype=np.int64)
    alive = np.array([[rnd.random() >= dead for _ in range(top)] for _ in range(q)])
    room = rows_left[cand]
    assert waves._settle(cand, alive, room, top).tolist() == _settle_by_walk(cand, alive, room)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.integers(1, 6), st.integers(1, 4), st.randoms(use_true_random=False))
def test_window_blocks_are_the_gathered_runs(n: int, width: int, qis: int, rnd: random.Random) -> None:
    """waves._blocks copies, from each start, the ``width`` consecutive entries (or rows) that a gather
    through start + 0..width−1 reads."""
    flat = np.arange(n + width, dtype=np.int32) * 7 - 3
    rows = (np.arange((n + width) * qis, dtype=np.int32) * 5 + 1).reshape(n + width, qis)
    first = np.array([rnd.randrange(n + 1) for _ in range(rnd.randint(1, 9))], dtype=np.int64)
    index = first[:, None] + np.arange(width)
    assert np.array_equal(waves._blocks(flat, width, first), np.take(flat, index))
    assert np.array_equal(waves._blocks(rows, width, first), np.take(rows, index, axis=0))


@settings(max_examples=40, deadline=None)
@given(bigger(), st.integers(0, 40))
def test_row_ranks_and_seed_queues_are_the_stable_sorts(table: tuple[list[Row], int], shift: int) -> None:
    """The rows' ranks by row id and each bucket's seed queue (its rows by row id) are numpy's stable
    argsort and lexsort of them: the radix passes and the one sort of a combined key give those orders,
    also for row ids far above the row count (``shift``: up to three 16-bit passes)."""
    rows, l_value = table
    cells, model = build(rows, SPECS)
    cells.rid = cells.rid << shift
    eng = Engine(cells, model, l_value)
    rank = np.empty(cells.n, dtype=np.int64)
    rank[np.argsort(cells.rid, kind="stable")] = np.arange(cells.n)
    assert eng.rank.tolist() == rank.tolist()
    row_bucket = cells.bucket[eng.row_cell]
    ref = np.lexsort((rank, row_bucket))
    assert [r.tolist() for r in eng.seed_rows] == [ref[row_bucket[ref] == b].tolist() for b in range(eng.m)]
