"""BSGI's exchange search (``bsgi/refine.py`` with ``bsgi/swaps.py``): the fast pass finds exactly the
exchanges of the plain one. The reference below prices every swap the direct way — per QI, A's state
without a_i is the join of its other rows' leaves (:meth:`QI.join`), joined with b_j, priced by
:meth:`QI.cost` — and prices every pair of every round (no pair log, no lower bound). The fast search
(stacked running min/max states, packed merged-cost tables, pairs priced since their last change
skipped, pairs whose lower bound cannot beat their cost skipped) must return the same partition, the
same exchange count and the same IL, on random tables of every QI kind (a deep tree that is climbed,
not tabled, included), classes of two sizes and several distinct keys."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi.greedy.cost import Attribute, CostModel, Tree
from ldiv_db.algorithms.bsgi.refine import exchange as refine
from ldiv_db.algorithms.bsgi.refine import qi, rounds, swaps
from ldiv_db.algorithms.bsgi.refine.exchange import Refiner
from ldiv_db.taxonomy import Hierarchy

H_CITY = Hierarchy(
    [
        ["a", "ab", "abcde", "*"],
        ["b", "ab", "abcde", "*"],
        ["c", "cde", "abcde", "*"],
        ["d", "cde", "abcde", "*"],
        ["e", "cde", "abcde", "*"],
        ["f", "fg", "fg", "*"],
        ["g", "fg", "fg", "*"],
    ]
)
H_SEX = Hierarchy([["F", "*"], ["M", "*"]])


class Plain(Refiner):
    """The reference: direct per-QI pricing, every pair of every round priced."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.skip_priced = False
        self.prune = False

    def _swap_costs(self, a: np.ndarray, b: np.ndarray, sa: int, sb: int) -> tuple[np.ndarray, np.ndarray]:
        ma, mb = self._mem[a, :sa], self._mem[b, :sb]
        cost_a = np.zeros((len(a), sa, sb), dtype=self.dtype)
        cost_b = np.zeros((len(a), sa, sb), dtype=self.dtype)
        for at in self.attrs:
            # A without a_i joined with each b_j (all j at once: the states broadcast over a last axis)
            for i in range(sa):
                cost_a[:, i, :] += at.cost(at.join(_without(at, ma, i), at.leaf(mb)))
            for j in range(sb):
                cost_b[:, :, j] += at.cost(at.join(_without(at, mb, j), at.leaf(ma)))
        return cost_a, cost_b


def _without(at: Any, members: np.ndarray, skip: int) -> tuple[np.ndarray, ...]:
    """Per pair, the join of the leaves of ``members``' rows but the ``skip``-th, as a column (pairs × 1)."""
    rest = [at.leaf(members[:, x]) for x in range(members.shape[1]) if x != skip]
    s = rest[0]
    for r in rest[1:]:
        s = at.join(s, r)
    return tuple(x[:, None] for x in s)


def _leaves(tree: Tree) -> np.ndarray:
    return np.flatnonzero(tree.last == np.arange(len(tree.parent)))


@st.composite
def cases(draw: Any, inexact: bool = False, one_size: bool = False) -> dict[str, Any]:
    """Rows with a hierarchy, a numeric (with values; ``inexact``: with fractions), a flat and a two-leaf
    QI; classes of sizes s and s + 1 (s = 2..5; ``one_size``: all of size s, 12 to 40 of them) with
    distinct primary values; optionally a second distinct key."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    s = draw(st.integers(2, 5))
    k = draw(st.integers(12, 40) if one_size else st.integers(2, 30))
    sizes = s + (rng.random(k) < (0.0 if one_size else draw(st.floats(0, 1)))).astype(np.int64)
    n = int(sizes.sum())
    gid = np.repeat(np.arange(k), sizes)
    rng.shuffle(gid)
    value = np.zeros(n, dtype=np.int64)
    for g in range(k):  # distinct values inside each class, drawn from a small alphabet
        rows = np.flatnonzero(gid == g)
        value[rows] = rng.permutation(s + 3)[: len(rows)]
    city, sex = Tree(H_CITY.arrays), Tree(H_SEX.arrays)
    weights = draw(st.lists(st.integers(0, 3), min_size=4, max_size=4).filter(lambda w: sum(w) > 0))
    span = draw(st.integers(1, 30))
    values = np.sort(rng.choice(np.arange(3 * span + 1), span + 1, replace=False)).astype(np.int64)
    if inexact:  # a numeric QI with fractions: the costs are doubles (CostModel.exact is False)
        values = values + rng.random(len(values)) * 0.9  # still ascending
    attrs = [
        Attribute("city", "hierarchy", Fraction(weights[0]), tree=city),
        Attribute(
            "age",
            "numeric",
            Fraction(weights[1]),
            lo=float(values[0]),
            hi=float(values[-1]),
            values=values,
            integral=not inexact,
        ),
        Attribute("kind", "flat", Fraction(weights[2])),
        Attribute("sex", "hierarchy", Fraction(weights[3]), tree=sex),
    ]
    cluster = rng.integers(0, 3, n)  # nearby rows share values more often, so exchanges pay
    codes = [
        _leaves(city)[(cluster * 2 + rng.integers(0, 3, n)) % len(_leaves(city))],
        np.minimum(cluster * (span // 3 + 1) + rng.integers(0, span // 2 + 1, n), span),
        (cluster + (rng.random(n) < 0.3)) % draw(st.integers(1, 4)),
        _leaves(sex)[rng.integers(0, 2, n)],
    ]
    distinct = [value]
    if draw(st.booleans()):
        second = np.zeros(n, dtype=np.int64)
        for g in range(k):
            rows = np.flatnonzero(gid == g)
            second[rows] = rng.permutation(len(rows) + 2)[: len(rows)]
        distinct.append(second)
    locality = np.stack([cluster * n + rng.permutation(n), rng.permutation(n)], axis=1).astype(np.int64)
    return {
        "attrs": attrs,
        "codes": [c.astype(np.int64) for c in codes],
        "distinct": distinct,
        "locality": locality,
        "gid": gid.astype(np.int64),
        "window": draw(st.integers(1, 4)),
    }


def _run(cls: type[Refiner], case: dict[str, Any]) -> refine.Refined:
    refiner = cls(
        CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
    )
    refiner.workers = case.get("workers", refiner.workers)
    refiner.sideways = case.get("sideways", True)
    return refiner.run(case["gid"].copy())


def _same(fast: refine.Refined, plain: refine.Refined) -> None:
    assert np.array_equal(fast.gid, plain.gid)
    assert (fast.moves, fast.passes, fast.sideways) == (plain.moves, plain.passes, plain.sideways)
    assert fast.il_before == plain.il_before and fast.il_after == plain.il_after


@settings(max_examples=60, deadline=None)
@given(case=cases(), sideways=st.booleans())
def test_fast_pass_finds_the_plain_exchanges(case: dict[str, Any], sideways: bool) -> None:
    """With sideways exchanges (the default) and without them."""
    case = {**case, "sideways": sideways}
    plain = _run(Plain, case)
    fast = _run(Refiner, case)
    _same(fast, plain)
    assert fast.il_after <= fast.il_before
    assert fast.sideways <= fast.moves and (sideways or fast.sideways == 0)


@settings(max_examples=40, deadline=None)
@given(case=cases(inexact=True))
def test_inexact_costs_keep_every_class_and_never_raise_the_il(case: dict[str, Any]) -> None:
    """Doubles (a numeric QI with fractions): the search — sideways exchanges included, which may not raise
    the IL by its rounding — keeps every class's size and distinct values, and ends at an IL (recomputed
    from the final classes) not above the start's. (Fast and plain pricing sum the doubles in different
    orders, so they are compared on exact costs only.)"""
    refiner = Refiner(CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"])
    assert not refiner.exact
    gid = case["gid"]
    out = refiner.run(gid.copy())
    assert np.array_equal(np.bincount(out.gid), np.bincount(gid))
    for key in case["distinct"]:
        assert len(set(zip(out.gid.tolist(), key.tolist(), strict=True))) == len(gid)
    assert out.sideways <= out.moves

    def il(g: np.ndarray) -> float:
        order = np.argsort(g, kind="stable")
        total = 0.0
        for size in np.unique(np.bincount(g)).tolist():
            classes = np.flatnonzero(np.bincount(g) == size)
            rows = order[np.isin(g[order], classes)].reshape(len(classes), size)
            total += size * float(refiner._cost(refiner._states(rows)).sum())
        return total

    start, end = il(gid), il(out.gid)
    assert np.isclose(end, float(out.il_after), rtol=1e-9) and np.isclose(
        start, float(out.il_before), rtol=1e-9
    )
    assert end <= start * (1 + 1e-9) + 1e-12


def _spread(refiner: Refiner, rows: np.ndarray) -> np.ndarray:
    """Σ over each class's pairs of rows (classes × size) of the cost of a class of the two, priced the
    direct way (:meth:`Refiner._states`, :meth:`Refiner._cost`): every pair of every class priced in one
    call, the pairs' costs then added in pair order."""
    pairs = [(u, v) for u in range(rows.shape[1]) for v in range(u + 1, rows.shape[1])]
    out = np.zeros(len(rows), dtype=np.float64)
    if not pairs:
        return out
    stacked = np.concatenate([rows[:, [u, v]] for u, v in pairs])  # pair-major: (pairs · classes) × 2
    costs = refiner._cost(refiner._states(stacked)).reshape(len(pairs), len(rows))
    for cost in costs:
        out += cost
    return out


@settings(max_examples=40, deadline=None)
@given(case=cases(), deep=st.booleans())
def test_spread_changes_are_the_direct_numbers(case: dict[str, Any], deep: bool) -> None:
    """A row pair's distance is the cost of a class of the two rows, and every spread change the search
    prices is spread(A') + spread(B') − spread(A) − spread(B) recomputed from the rows (trees climbed or
    tabled, QIs packed)."""
    saved = qi._LCA_TABLE
    qi._LCA_TABLE = 0 if deep else saved
    try:
        refiner = Refiner(CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"])
    finally:
        qi._LCA_TABLE = saved
    pricer, change = refiner.pricer, refiner.pricer.spread_change
    n = len(case["gid"])
    x, y = np.arange(n), np.random.default_rng(0).permutation(n)
    assert np.array_equal(pricer.distance(x, y), refiner._cost(refiner._states(np.stack([x, y], axis=1))))
    calls = [0]

    def check(ma: np.ndarray, mb: np.ndarray, a: np.ndarray, b: np.ndarray, sw: Any) -> np.ndarray:
        got = change(ma, mb, a, b, sw)
        p, i, j = sw
        after_a, after_b = ma[p].copy(), mb[p].copy()
        after_a[np.arange(len(p)), i], after_b[np.arange(len(p)), j] = mb[p, j], ma[p, i]
        want = (
            _spread(refiner, after_a)
            + _spread(refiner, after_b)
            - _spread(refiner, ma[p])
            - _spread(refiner, mb[p])
        )
        assert np.allclose(got, want, rtol=1e-12, atol=1e-9)
        calls[0] += 1
        return got

    pricer.spread_change = check  # type: ignore[method-assign]
    spreads, read = refiner._spreads, [0]

    def count(ma: Any, mb: Any, a: Any, b: Any, sw: Any, delta: np.ndarray) -> np.ndarray:
        read[0] += int((delta <= 0).sum())
        return spreads(ma, mb, a, b, sw, delta)

    refiner._spreads = count  # type: ignore[method-assign]
    out = refiner.run(case["gid"].copy())
    # priced unless no pass took sideways exchanges (classes of two, or every class at cost 0 after the
    # plain first pass) or none of their swaps kept or lowered the IL (the only spreads read)
    assert calls[0] > 0 or out.il_after == 0 or np.bincount(case["gid"]).max() < 3 or read[0] == 0


def test_a_sideways_exchange_opens_the_way_to_an_improving_one() -> None:
    """Two classes of four, each two F and two M, every SA value in both: any one exchange leaves both
    mixed (the IL stays), so the search without sideways exchanges stops at once; a sideways exchange
    (one class 3 F + 1 M: fewer mixed pairs) and then an improving one separate the sexes (IL 0)."""
    sex = Tree(H_SEX.arrays)
    f, m = _leaves(sex)
    case = {
        "attrs": [Attribute("sex", "hierarchy", Fraction(1), tree=sex)],
        "codes": [np.array([f, f, m, m, m, m, f, f], dtype=np.int64)],
        "distinct": [np.array([0, 1, 2, 3, 0, 1, 2, 3], dtype=np.int64)],
        "locality": np.arange(8, dtype=np.int64)[:, None],
        "gid": np.array([0, 0, 0, 0, 1, 1, 1, 1], dtype=np.int64),
        "window": 1,
    }
    stuck = _run(Refiner, {**case, "sideways": False})
    assert stuck.moves == 0 and stuck.il_after == stuck.il_before > 0
    out = _run(Refiner, case)
    assert (out.moves, out.sideways, out.il_after) == (2, 1, 0)
    assert len({tuple(sorted(case["codes"][0][out.gid == g])) for g in (0, 1)}) == 2
    _same(out, _run(Plain, case))


@settings(max_examples=25, deadline=None)
@given(case=cases(), deep=st.booleans())
def test_climbed_trees_and_unpacked_tables_change_nothing(case: dict[str, Any], deep: bool) -> None:
    """Trees above the LCA-table limit are climbed (``deep``), else each QI gets its own table."""
    plain = _run(Plain, case)
    saved = qi._LCA_TABLE, swaps.PACK
    qi._LCA_TABLE, swaps.PACK = (0, saved[1]) if deep else (saved[0], 1)
    try:
        model = CostModel(case["attrs"])
        refiner = Refiner(model, case["codes"], case["distinct"], case["locality"], window=case["window"])
    finally:
        qi._LCA_TABLE, swaps.PACK = saved
    if deep:
        assert len(refiner.pricer.deep) == 2 and not refiner.pricer.packed.groups
    else:
        assert refiner.pricer.packed.groups == [[0], [1]]
    _same(refiner.run(case["gid"].copy()), plain)


@settings(max_examples=60, deadline=None)
@given(case=cases())
def test_pair_bound_never_skips_an_improving_pair(case: dict[str, Any]) -> None:
    """Every pair the bound declares hopeless has no swap that lowers |A|·cost(A) + |B|·cost(B)."""
    refiner = Refiner(CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"])
    price = refiner.pricer.hopeful

    def check(a: np.ndarray, b: np.ndarray, sa: int, sb: int, now: np.ndarray) -> np.ndarray:
        hope = price(a, b, sa, sb, now)
        cost_a, cost_b = Plain._swap_costs(refiner, a, b, sa, sb)  # type: ignore[arg-type]
        best = (sa * cost_a + sb * cost_b).reshape(len(a), -1).min(axis=1)
        assert (best[~hope] >= now[~hope]).all()
        return hope

    refiner.pricer.hopeful = check  # type: ignore[method-assign]
    refiner.run(case["gid"].copy())


@settings(max_examples=60, deadline=None)
@given(case=cases())
def test_swap_bounds_are_below_every_swap_and_priced_swaps_are_the_dense_numbers(
    case: dict[str, Any],
) -> None:
    """Per swap, the bound is at most |A|·cost(A') + |B|·cost(B') (so an unpriced swap never improves),
    and the swaps priced one by one cost what the direct pricing says."""
    refiner = Refiner(CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"])
    bounds, priced = refiner.pricer.bounds, refiner.pricer.priced

    def check(
        mem: np.ndarray, a: np.ndarray, b: np.ndarray, sa: int, sb: int, now: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        keep, below, ma_kept, mb_kept = bounds(mem, a, b, sa, sb, now)
        ma, mb = mem[a, :sa], mem[b, :sb]
        assert np.array_equal(ma_kept, ma[keep]) and np.array_equal(mb_kept, mb[keep])
        cost_a, cost_b = Plain._swap_costs(refiner, a, b, sa, sb)  # type: ignore[arg-type]
        after = sa * cost_a + sb * cost_b
        assert (after[~keep] >= now[~keep, None, None]).all()
        assert (after[keep][~below] >= np.broadcast_to(now[keep][:, None, None], below.shape)[~below]).all()
        every = np.nonzero(np.ones(after.shape, dtype=bool))
        one_a, one_b = priced(ma, mb, a, b, every)
        assert np.array_equal(one_a, cost_a[every]) and np.array_equal(one_b, cost_b[every])
        return keep, below, ma_kept, mb_kept

    refiner.pricer.bounds = check  # type: ignore[method-assign]
    refiner.run(case["gid"].copy())


@settings(max_examples=40, deadline=None)
@given(case=st.one_of(cases(), cases(inexact=True)), workers=st.sampled_from([1, 3]))
def test_the_entering_bound_reads_the_codes_of_the_rows_each_class_holds(
    case: dict[str, Any], workers: int
) -> None:
    """The entering bound reads a class's rows from per-member copies of their codes (packed hierarchy
    codes, numeric values, flat codes), refreshed with the class: at every call of the bounds they are
    the codes of the rows each class holds then (also with a round's chunks on threads), and the
    exchanges are those of pricing every swap (exact costs) or of reading the rows' codes directly."""
    saved = refine.CHUNK
    refine.CHUNK = 1
    try:
        refiner = Refiner(
            CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
        )
        refiner.workers = workers
        pricer, bounds = refiner.pricer, refiner.pricer.bounds
        calls = [0]

        def check(
            mem: np.ndarray, a: np.ndarray, b: np.ndarray, sa: int, sb: int, now: np.ndarray
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
            for cls, s in ((a, sa), (b, sb)):
                rows = mem[cls, :s]
                for held, codes in zip(
                    pricer.member, (pricer.packed.codes, pricer.num.codes, pricer.flat.codes), strict=True
                ):
                    assert np.array_equal(held[:, cls, :s], codes[:, rows])
            calls[0] += 1
            return bounds(mem, a, b, sa, sb, now)

        pricer.bounds = check  # type: ignore[method-assign]
        fast = refiner.run(case["gid"].copy())
    finally:
        refine.CHUNK = saved
    if calls[0] == 0:  # classes of two, or nothing to price: no bound was taken
        assert int(np.bincount(case["gid"]).max()) < 3 or fast.moves == 0
    if CostModel(case["attrs"]).exact:
        _same(fast, _run(Plain, case))


def test_classes_of_three_are_priced_swap_by_swap() -> None:
    """Two classes of three whose exchange pays: the bounds leave the paying swaps, which are priced one
    by one and applied (the same result as the plain search)."""
    city, sex = Tree(H_CITY.arrays), Tree(H_SEX.arrays)
    leaves = _leaves(city)
    attrs = [
        Attribute("city", "hierarchy", Fraction(1), tree=city),
        Attribute("sex", "hierarchy", Fraction(1), tree=sex),
    ]
    # class 0 holds two 'a' rows and one 'f'; class 1 two 'f' rows and one 'a': one swap unmixes both
    case = {
        "attrs": attrs,
        "codes": [leaves[[0, 0, 5, 5, 5, 0]], _leaves(sex)[[0, 0, 0, 0, 0, 0]]],
        "distinct": [np.array([0, 1, 2, 0, 1, 2], dtype=np.int64)],
        "locality": np.arange(6, dtype=np.int64)[:, None],
        "gid": np.array([0, 0, 0, 1, 1, 1], dtype=np.int64),
        "window": 1,
    }
    refiner = Refiner(CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=1)
    calls = {"bounds": 0}
    bounds = refiner.pricer.bounds

    def count(*args: Any) -> tuple[np.ndarray, np.ndarray]:
        calls["bounds"] += 1
        return bounds(*args)

    refiner.pricer.bounds = count  # type: ignore[method-assign]
    fast = refiner.run(case["gid"].copy())
    assert calls["bounds"] >= 1 and fast.moves == 1 and fast.il_after == 0
    _same(fast, _run(Plain, case))


@settings(max_examples=40, deadline=None)
@given(case=cases())
def test_chunks_on_threads_apply_the_exchanges_of_one_thread(case: dict[str, Any]) -> None:
    """A round's pairs priced in chunks shared among several threads (chunks of one pair here) apply
    exactly the exchanges of the whole round on one thread."""
    one = _run(Refiner, {**case, "workers": 1})
    saved = refine.CHUNK, rounds.shared
    jobs, inside = [0], [False]  # the most chunks a round's pairs were shared in

    def counted(pool: Any, threads: int, n: int, run: Any) -> list[Any]:
        jobs[0] = max(jobs[0], n) if inside[0] else jobs[0]  # not the orders' or the slices' jobs
        return saved[1](pool, threads, n, run)

    refine.CHUNK = 1
    vars(refine)["shared"] = counted  # the name the refiner calls
    try:
        refiner = Refiner(
            CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
        )
        refiner.workers = 3
        chunks, largest = refiner._chunks, [0]

        def group(pairs: int, run: Any) -> int:
            largest[0], inside[0] = max(largest[0], pairs), True
            try:
                return chunks(pairs, run)
            finally:
                inside[0] = False

        refiner._chunks = group  # type: ignore[method-assign]
        many = refiner.run(case["gid"].copy())
    finally:
        refine.CHUNK = saved[0]
        vars(refine)["shared"] = saved[1]
    _same(many, one)
    assert many.threads == 3
    if largest[0] >= 2:  # a round had two pairs of one size combination or more: shared among threads
        assert jobs[0] >= 2


@settings(max_examples=30, deadline=None)
@given(case=cases(), log=st.booleans())
def test_progress_reports_every_round_of_every_pass(case: dict[str, Any], log: bool) -> None:
    """The exchange search reports each round of each pass (rounds done, rounds per pass, which pass),
    with the pair log and without it, and reporting changes no exchange."""
    quiet = _run(Refiner, case)
    refiner = Refiner(
        CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
    )
    refiner.skip_priced = log
    seen: list[tuple[int, int, str]] = []
    refiner.progress = lambda done, total, note: seen.append((done, total, note))
    out = refiner.run(case["gid"].copy())
    _same(out, quiet)
    k = int(case["gid"].max()) + 1
    per_pass = case["locality"].reshape(len(case["locality"]), -1).shape[1] * 3 * case["window"] * 2
    if k < 2:
        assert seen == []
        return
    most: Any = refine.MAX_PASSES
    if np.bincount(case["gid"]).max() >= 3:
        most = f"{refine.MAX_PASSES}; {refine.SIDEWAYS_PASSES} with sideways exchanges"
    expected = [
        (done, per_pass, f"exchange pass {p} (at most {most})")
        for p in range(1, out.passes + 1)
        for done in range(1, per_pass + 1)
    ]
    assert seen == expected


@settings(max_examples=30, deadline=None)
@given(case=st.one_of(cases(), cases(inexact=True)))
def test_any_first_term_of_the_entering_bound_finds_the_same_exchanges(case: dict[str, Any]) -> None:
    """Whichever QI term the entering bound prices first (and rules pairs out by), the search applies the
    same exchanges — those of pricing every swap where the costs are exact; with inexact costs (doubles,
    whose sums keep their order) the same as with every other first term."""
    model = CostModel(case["attrs"])
    runs = []
    for lead in range(3):  # the case's terms: the packed hierarchies, the numeric QI, the flat QI
        refiner = Refiner(model, case["codes"], case["distinct"], case["locality"], window=case["window"])
        pricer = refiner.pricer
        assert len(pricer.packed.groups) + len(pricer.num.attrs) + len(pricer.flat.attrs) == 3
        pricer.lead = lead
        runs.append(refiner.run(case["gid"].copy()))
    for other in runs[1:]:
        _same(other, runs[0])
    if model.exact:
        _same(runs[0], _run(Plain, case))


@settings(max_examples=40, deadline=None)
@given(case=st.one_of(cases(), cases(inexact=True)), workers=st.sampled_from([1, 3]))
def test_admissibility_reads_the_keys_of_the_rows_each_class_holds(
    case: dict[str, Any], workers: int
) -> None:
    """Admissibility reads a class's distinct keys from per-member copies, refreshed with the class: at
    every call they are the keys of the rows each class holds then (also with a round's chunks on
    threads), the mask is the one the rows' keys give, and the exchanges are the plain search's."""
    saved = refine.CHUNK
    refine.CHUNK = 1
    try:
        refiner = Refiner(
            CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
        )
        refiner.workers = workers
        admissible = refiner._admissible
        calls = [0]

        def check(a: np.ndarray, b: np.ndarray, sa: int, sb: int) -> np.ndarray:
            ma, mb = refiner._mem[a, :sa], refiner._mem[b, :sb]
            for held, key in zip(refiner._held, case["distinct"], strict=True):
                assert np.array_equal(held[a, :sa], key[ma]) and np.array_equal(held[b, :sb], key[mb])
            ok = admissible(a, b, sa, sb)
            direct = np.ones(ok.shape, dtype=bool)
            for key in case["distinct"]:
                eq = key[ma][:, :, None] == key[mb][:, None, :]
                direct &= (eq.sum(axis=1, keepdims=True) == eq) & (eq.sum(axis=2, keepdims=True) == eq)
            assert np.array_equal(ok, direct)
            calls[0] += 1
            return ok

        refiner._admissible = check  # type: ignore[method-assign]
        fast = refiner.run(case["gid"].copy())
    finally:
        refine.CHUNK = saved
    assert calls[0] >= 1 or fast.moves == 0
    if CostModel(case["attrs"]).exact:
        _same(fast, _run(Plain, case))


@settings(max_examples=40, deadline=None)
@given(case=st.one_of(cases(), cases(inexact=True)))
def test_spreads_are_taken_only_for_the_swaps_that_do_not_raise_the_il(case: dict[str, Any]) -> None:
    """A sideways round takes the spread change of the swaps that keep or lower the IL only (the others'
    are never chosen); the search applies the exchanges it applies with every listed swap's spread."""
    model = CostModel(case["attrs"])
    every = Refiner(model, case["codes"], case["distinct"], case["locality"], window=case["window"])

    def all_spreads(ma: Any, mb: Any, a: Any, b: Any, swaps: Any, delta: Any) -> np.ndarray:
        return every.pricer.spread_change(ma, mb, a, b, swaps)  # type: ignore[no-any-return]

    every._spreads = all_spreads  # type: ignore[method-assign]
    reference = every.run(case["gid"].copy())

    refiner = Refiner(model, case["codes"], case["distinct"], case["locality"], window=case["window"])
    spreads, taken = refiner._spreads, [0, 0]

    def check(ma: Any, mb: Any, a: Any, b: Any, swaps: Any, delta: np.ndarray) -> np.ndarray:
        out = spreads(ma, mb, a, b, swaps, delta)
        full = refiner.pricer.spread_change(ma, mb, a, b, swaps)
        assert np.array_equal(out[delta <= 0], full[delta <= 0]) and (out[delta > 0] == 0).all()
        taken[0] += int((delta <= 0).sum())
        taken[1] += len(delta)
        return out

    refiner._spreads = check  # type: ignore[method-assign]
    _same(refiner.run(case["gid"].copy()), reference)
    assert taken[0] <= taken[1]


@settings(max_examples=60, deadline=None)
@given(case=st.one_of(cases(), cases(inexact=True)))
def test_the_bounds_keep_the_pairs_they_keep_after_the_cheapest_states_test(case: dict[str, Any]) -> None:
    """Where the entering bound's first test holds the cheapest leave-one-out states' test (|A| ≥ 3), the
    bounds skip that test and keep exactly the pairs, swaps and rows they keep on the pairs it passes."""
    refiner = Refiner(CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"])
    pricer = refiner.pricer
    bounds = pricer.bounds

    def check(
        mem: np.ndarray, a: np.ndarray, b: np.ndarray, sa: int, sb: int, now: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        keep, below, ma, mb = bounds(mem, a, b, sa, sb, now)
        first = pricer._under(sa * pricer.loo_min[a] + sb * pricer.loo_min[b], now)
        sub_keep, sub_below, sub_ma, sub_mb = bounds(mem, a[first], b[first], sa, sb, now[first])
        assert np.array_equal(keep, np.isin(np.arange(len(a)), np.flatnonzero(first)[sub_keep]))
        assert np.array_equal(below, sub_below)
        assert np.array_equal(ma, sub_ma) and np.array_equal(mb, sub_mb)
        return keep, below, ma, mb

    pricer.bounds = check  # type: ignore[method-assign]
    refiner.run(case["gid"].copy())


@settings(max_examples=30, deadline=None)
@given(case=cases())
def test_a_pass_pairs_each_class_with_the_one_d_places_further(case: dict[str, Any]) -> None:
    """A pass's rounds (their places made once a pass): along each order, for d = 1..window and phase 0,
    1, the classes at the places t with ⌊t / d⌋ of that parity, each with the class d places further."""
    refiner = Refiner(
        CostModel(case["attrs"]), case["codes"], case["distinct"], case["locality"], window=case["window"]
    )
    refiner.run(case["gid"].copy())
    mem = refiner._mem
    sizes = (mem >= 0).sum(axis=1)
    expected = []
    for order in refiner._orders(mem, sizes):
        for d in range(1, case["window"] + 1):
            for phase in (0, 1):
                t = [x for x in range(len(order) - d) if (x // d) % 2 == phase]
                expected.append((order[t], order[np.array(t, dtype=np.int64) + d]))
    got = list(refiner._rounds(mem, sizes))
    assert len(got) == len(expected) == refiner.orders * 3 * case["window"] * 2
    for (a, b), (x, y) in zip(got, expected, strict=True):
        assert np.array_equal(a, x) and np.array_equal(b, y)
