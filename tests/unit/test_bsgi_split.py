"""BSGI's feasible-split construction (``bsgi/split.py``): the dealing lemma, and on random tables the
partition it builds — every row in one class, BSGI Theorem 1's class count, sizes n // k or n // k + 1,
distinct SA values in each class — and the exchange search started from it never raising its IL."""

from __future__ import annotations

import itertools
import threading
from fractions import Fraction
from typing import Any
from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.bsgi.greedy.cost import Attribute, CostModel
from ldiv_db.algorithms.bsgi.refine import pieces
from ldiv_db.algorithms.bsgi.refine.exchange import Refiner
from ldiv_db.algorithms.bsgi.refine.pieces import Cut
from ldiv_db.algorithms.bsgi.refine.runs import occurrences, sort_rows
from ldiv_db.algorithms.bsgi.refine.split import (
    _cuts,
    _Level,
    _levels,
    _near_prefix,
    _Rows,
    _sized,
    _Splitter,
    deal,
    split,
)
from ldiv_db.algorithms.bsgi.refine.starts import dm, partition_cost
from ldiv_db.algorithms.shared.lca import stable_order
from ldiv_db.algorithms.shared.schedule import max_l_schedule


def _classes_ok(gid: np.ndarray, value: np.ndarray, k: int, s: int) -> None:
    assert gid.min() == 0 and gid.max() == k - 1
    sizes = np.bincount(gid, minlength=k)
    assert sizes.sum() == len(value)  # every row in exactly one class
    assert set(sizes.tolist()) <= {s, s + 1}
    for g in range(k):
        v = value[gid == g]
        assert len(np.unique(v)) == len(v)


@st.composite
def nodes(draw: Any) -> tuple[np.ndarray, int, int]:
    """A node that meets the lemma's conditions: k' classes, n' in [k'·s, k'·(s+1)], counts ≤ k'."""
    k = draw(st.integers(1, 6))
    s = draw(st.integers(1, 5))
    n = draw(st.integers(k * s, k * (s + 1)))
    counts: list[int] = []
    while sum(counts) < n:
        counts.append(draw(st.integers(1, min(k, n - sum(counts)))))
    value = np.repeat(np.arange(len(counts)), counts)
    perm = np.random.default_rng(draw(st.integers(0, 2**16))).permutation(n)
    return value[perm].astype(np.int64), k, s


@settings(max_examples=300, deadline=None)
@given(node=nodes())
def test_dealing_lemma_sufficiency(node: tuple[np.ndarray, int, int]) -> None:
    value, k, s = node
    key = np.arange(len(value), dtype=np.int64)
    gid = deal(value, key, np.zeros(len(value), dtype=np.int64), np.array([k]))
    _classes_ok(gid, value, k, s)


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    k=st.integers(1, 4),
    s=st.integers(1, 3),
)
def test_dealing_lemma_necessity(counts: list[int], k: int, s: int) -> None:
    """Brute force: k classes of sizes in {s, s+1} with distinct values exist only under the conditions."""
    n = sum(counts)
    value = np.repeat(np.arange(len(counts)), counts)
    if n > 8:
        return

    def valid(a: tuple[int, ...]) -> bool:
        members = [value[np.array(a) == g] for g in range(k)]
        return all(len(m) in (s, s + 1) and len(set(m.tolist())) == len(m) for m in members)

    exists = any(valid(a) for a in itertools.product(range(k), repeat=n))
    assert exists == (k * s <= n <= k * (s + 1) and max(counts) <= k)


@st.composite
def tables(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(4, 80))
    l = draw(st.integers(2, 5))
    m = draw(st.integers(l, 8))
    skew = draw(st.floats(0.2, 5.0))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    p = rng.dirichlet(np.full(m, skew))
    value = rng.choice(m, n, p=p).astype(np.int64)
    weights = draw(st.lists(st.integers(0, 3), min_size=3, max_size=3).filter(lambda w: sum(w) > 0))
    span = draw(st.integers(1, 40))
    attrs = [
        Attribute("age", "numeric", Fraction(weights[0]), lo=0, hi=span, values=np.arange(span + 1)),
        Attribute("kind", "flat", Fraction(weights[1])),
        Attribute("zip", "numeric", Fraction(weights[2]), lo=0, hi=9, values=np.arange(10)),
    ]
    codes = [
        rng.integers(0, span + 1, n),
        rng.integers(0, draw(st.integers(1, 4)), n),
        rng.integers(0, 10, n),
    ]
    return {"value": value, "l": l, "attrs": attrs, "codes": [c.astype(np.int64) for c in codes], "rng": rng}


def _refiner(case: dict[str, Any]) -> Refiner:
    n = len(case["value"])
    return Refiner(CostModel(case["attrs"]), case["codes"], [case["value"]], np.arange(n, dtype=np.int64))


def _feasible(case: dict[str, Any]) -> tuple[Refiner, np.ndarray, int] | None:
    """The refiner, a keyed order and the number of classes of a case that has a partition, or None."""
    value = case["value"]
    k = max_l_schedule(np.bincount(value).tolist(), case["l"]).classes
    if k == 0 or int(np.bincount(value).max()) > k:
        return None
    return _refiner(case), case["rng"].permutation(len(value)).astype(np.int64), k


@settings(max_examples=150, deadline=None)
@given(case=tables(), tries=st.integers(1, 3))
def test_split_partition_is_valid(case: dict[str, Any], tries: int) -> None:
    value, l = case["value"], case["l"]
    n = len(value)
    k = max_l_schedule(np.bincount(value).tolist(), l).classes
    if k == 0:
        return
    refiner = _refiner(case)
    key = case["rng"].permutation(n).astype(np.int64)
    out = split(refiner, key, k, tries)
    if int(np.bincount(value).max()) > k:  # some value must repeat in a class: no such partition
        assert out is None
        return
    assert out is not None
    _classes_ok(out.gid, value, k, n // k)
    # the tree's depth-first order: a permutation in which every class's rows are contiguous
    assert np.array_equal(np.sort(out.order), np.arange(n))
    by_order = out.gid[np.argsort(out.order)]
    assert int((by_order[1:] != by_order[:-1]).sum()) == k - 1
    r = n - k * (n // k)  # sizes n // k and n // k + 1: the least DM of any k classes of n rows
    assert dm(out.gid) == r * (n // k + 1) ** 2 + (k - r) * (n // k) ** 2
    refined = refiner.run(out.gid)
    assert refined.il_before == partition_cost(refiner, out.gid)
    assert refined.il_after <= refined.il_before
    _classes_ok(refined.gid, value, k, n // k)


@settings(max_examples=60, deadline=None)
@given(case=tables(), tries=st.integers(2, 3), threads=st.integers(2, 3))
def test_split_on_threads_makes_the_same_cuts(case: dict[str, Any], tries: int, threads: int) -> None:
    """A level's attempts run side by side (``threads``) and are compared in their order: the same
    classes, tree order, levels and near-prefix cuts as one thread."""
    inputs = _feasible(case)
    if inputs is None:
        return
    refiner, key, k = inputs
    one, more = split(refiner, key, k, tries), split(refiner, key, k, tries, threads=threads)
    assert one is not None and more is not None
    assert np.array_equal(one.gid, more.gid) and np.array_equal(one.order, more.order)
    assert (one.levels, one.near) == (more.levels, more.near)


@settings(max_examples=60, deadline=None)
@given(case=tables(), rows=st.integers(1, 40), threads=st.integers(2, 3))
def test_split_in_pieces_makes_the_same_cuts(case: dict[str, Any], rows: int, threads: int) -> None:
    """On threads each attempt is made in pieces of whole nodes (``PIECE_ROWS`` rows; one node a piece at
    1) shared among the threads: the same classes, tree order, levels and near-prefix cuts as every
    attempt made whole on one thread."""
    inputs = _feasible(case)
    if inputs is None:
        return
    refiner, key, k = inputs
    whole = split(refiner, key, k)
    made: list[tuple[int, int, int]] = []  # per level: its first node's rows, its rows, its pieces
    cut_up = pieces.pieces

    def spy(lens: np.ndarray) -> list[int]:
        bounds = cut_up(lens)
        made.append((int(lens[0]), int(lens.sum()), len(bounds) - 1))
        return bounds

    with mock.patch.object(pieces, "PIECE_ROWS", rows), mock.patch.object(pieces, "pieces", spy):
        more = split(refiner, key, k, threads=threads)
    assert whole is not None and more is not None
    assert np.array_equal(whole.gid, more.gid) and np.array_equal(whole.order, more.order)
    assert (whole.levels, whole.near) == (more.levels, more.near)
    assert made or k == 1  # every level with a node to cut went through the pieces
    if rows == 1:  # a piece a row's worth: a level whose first node is at most half its rows is cut
        assert all(cut > 1 for first, total, cut in made if 2 * first <= total)


@given(lens=st.lists(st.integers(1, 50), min_size=1, max_size=40), rows=st.integers(1, 200))
def test_pieces_are_runs_of_whole_nodes(lens: list[int], rows: int) -> None:
    """The pieces begin at node 0, end at the last node, each holds a node at least, and there are about
    total // PIECE_ROWS of them (one at least, one a node at most)."""
    with mock.patch.object(pieces, "PIECE_ROWS", rows):
        bounds = pieces.pieces(np.array(lens, dtype=np.int64))
    assert bounds[0] == 0 and bounds[-1] == len(lens)
    assert all(a < b for a, b in itertools.pairwise(bounds))
    assert 1 <= len(bounds) - 1 <= max(1, min(sum(lens) // rows, len(lens)))


class _SetAfter(threading.Event):
    """An event that reads as set from its ``n``-th look on: the greedy beside finishing mid-split."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.looks, self.n = 0, n

    def is_set(self) -> bool:
        self.looks += 1
        return self.looks > self.n


@settings(max_examples=40, deadline=None)
@given(case=tables(), after=st.integers(0, 6))
def test_split_widening_mid_way_makes_the_same_cuts(case: dict[str, Any], after: int) -> None:
    """Built beside the greedy, the split runs its attempts one at a time until ``wide`` is set, then on
    two threads: the same classes, tree order, levels and near-prefix cuts as one thread throughout."""
    inputs = _feasible(case)
    if inputs is None:
        return
    refiner, key, k = inputs
    wide = _SetAfter(after)
    one, more = split(refiner, key, k), split(refiner, key, k, threads=2, wide=wide)
    assert one is not None and more is not None
    assert np.array_equal(one.gid, more.gid) and np.array_equal(one.order, more.order)
    assert (one.levels, one.near) == (more.levels, more.near)


@settings(max_examples=40, deadline=None)
@given(case=tables())
def test_attempts_left_when_the_greedy_ends_are_made_in_pieces(case: dict[str, Any]) -> None:
    """``wide`` is looked at between a level's attempts: set after the root's first attempt, the root's
    other attempts are made in pieces on two threads (the root is the first level through the pieces),
    with the same classes, tree order, levels and near-prefix cuts as one thread throughout."""
    inputs = _feasible(case)
    if inputs is None:
        return
    refiner, key, k = inputs
    if k < 2 or len(refiner.attrs) < 2:
        return
    made: list[int] = []  # per level through the pieces: its nodes
    cut_up = pieces.pieces

    def spy(lens: np.ndarray) -> list[int]:
        made.append(len(lens))
        return cut_up(lens)

    one = split(refiner, key, k)
    with mock.patch.object(pieces, "pieces", spy):
        more = split(refiner, key, k, threads=2, wide=_SetAfter(1))
    assert one is not None and more is not None
    assert np.array_equal(one.gid, more.gid) and np.array_equal(one.order, more.order)
    assert (one.levels, one.near) == (more.levels, more.near)
    assert made[0] == 1  # the root: one node


@settings(max_examples=100, deadline=None)
@given(case=tables(), data=st.data())
def test_position_prices_are_the_parts_costs(case: dict[str, Any], data: Any) -> None:
    """Every position's price (running spans within each node) equals Σ over the two parts of rows ×
    span cost, computed part by part."""
    value = case["value"]
    n = len(value)
    refiner = _refiner(case)
    sp = _Splitter(refiner, np.arange(n, dtype=np.int64), 1, 1)
    lens = np.array(data.draw(st.lists(st.integers(1, 12), min_size=1, max_size=8)), dtype=np.int64)
    lens = lens[np.cumsum(lens) <= n]
    if not len(lens):
        return
    rows = case["rng"].permutation(n)[: int(lens.sum())].astype(np.int64)
    seg = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    j = np.flatnonzero(np.arange(len(seg)) != starts[seg])
    # a subset of the positions, as the admissible ones are: nodes without any are left out of pricing
    j = j[case["rng"].random(len(j)) < data.draw(st.floats(0.2, 1.0))]
    got = sp._price(sp.codes, rows, seg, j)
    for jj, price in zip(j.tolist(), got.tolist(), strict=True):
        a, b = starts[seg[jj]], starts[seg[jj]] + lens[seg[jj]]
        parts = np.array([jj - a, b - jj], dtype=np.int64)
        want = (sp._span_cost(sp.codes, rows[a:b], parts).sum(axis=1) * parts).sum()
        assert price == want


class _StopAfter(threading.Event):
    """Set once it has been asked ``calls`` times (the split asks once per level)."""

    def __init__(self, calls: int) -> None:
        super().__init__()
        self.left = calls

    def is_set(self) -> bool:
        self.left -= 1
        return self.left < 0


def test_split_stops_between_levels() -> None:
    rng = np.random.default_rng(3)
    n = 400
    value = np.tile(np.arange(4, dtype=np.int64), n // 4)
    attrs = [Attribute("age", "numeric", Fraction(1), lo=0, hi=99, values=np.arange(100))]
    refiner = Refiner(CostModel(attrs), [rng.integers(0, 100, n)], [value], np.arange(n, dtype=np.int64))
    key = rng.permutation(n).astype(np.int64)
    whole = split(refiner, key, 100, stop=_StopAfter(10**6))
    assert whole is not None and whole.levels >= 3
    assert split(refiner, key, 100, stop=_StopAfter(2)) is None  # asked before the third level: stopped


@settings(max_examples=80, deadline=None)
@given(
    values=st.lists(st.integers(0, 2**40), max_size=300),
    bits=st.sampled_from([4, 16, 17, 31, 32, 41]),
)
def test_stable_order_is_the_stable_argsort(values: list[int], bits: int) -> None:
    """The radix passes the split sorts by (:func:`~ldiv_db.algorithms.shared.lca.stable_order`) give
    numpy's stable order for keys of every width (one 16-bit pass, two, three), ties in position order."""
    x = np.array([v % (1 << bits) for v in values], dtype=np.int64)
    assert np.array_equal(stable_order(x), np.argsort(x, kind="stable"))


@settings(max_examples=300, deadline=None)
@given(s=st.integers(1, 5), data=st.data())
def test_cuts_over_the_sized_positions_are_those_over_every_position(s: int, data: Any) -> None:
    """:func:`_cuts` looks only at the positions whose parts can have sizes in {s, s + 1}
    (:func:`_sized`): on random nodes (n' in [k'·s, k'·(s + 1)]), SA values and prices with ties, the
    cuts and k1 are those of the straightforward search over every position; and each sized position is
    one at which the size conditions hold for some k1, checked one by one."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    ks = np.array(data.draw(st.lists(st.integers(2, 9), min_size=1, max_size=6)), dtype=np.int64)
    lens = np.array([int(rng.integers(k * s, k * (s + 1) + 1)) for k in ks.tolist()], dtype=np.int64)
    seg = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
    value = rng.integers(0, data.draw(st.integers(1, 12)), len(seg)).astype(np.int64)
    table = rng.integers(0, data.draw(st.integers(1, 6)), len(seg)).astype(np.float64)  # ties likely
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    every = np.flatnonzero(np.arange(len(seg)) != starts[seg])
    want = _cuts(value, seg, lens, ks, s, lambda j: table[j], j=every)
    got = _cuts(value, seg, lens, ks, s, lambda j: table[j])
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    sized = set(_sized(lens, ks, s).tolist())
    for jj in every.tolist():
        node = int(seg[jj])
        n, k, p = int(lens[node]), int(ks[node]), jj - int(starts[node])
        fits = any(
            k1 * s <= p <= k1 * (s + 1) and (k - k1) * s <= n - p <= (k - k1) * (s + 1) for k1 in range(1, k)
        )
        assert (jj in sized) == fits


class _Checked(_Splitter):
    """A splitter that checks, at every level, that the nodes' span costs carried over from their
    parent's cut are those :meth:`_Splitter._span_cost` computes from the nodes' rows."""

    checked = 0

    def level(self, lv: _Level) -> _Level:
        inner = lv.ks >= 2
        if lv.spans is not None and inner.any():
            rows = lv.perm[~np.repeat(lv.ks == 1, lv.lens)]
            assert np.array_equal(lv.spans[inner], self._span_cost(self.codes, rows, lv.lens[inner]))
            self.checked += int(inner.sum())
        return super().level(lv)


@settings(max_examples=100, deadline=None)
@given(case=tables(), tries=st.integers(1, 3))
def test_carried_span_costs_are_the_recomputed_ones(case: dict[str, Any], tries: int) -> None:
    value = case["value"]
    n = len(value)
    k = max_l_schedule(np.bincount(value).tolist(), case["l"]).classes
    if k < 2 or int(np.bincount(value).max()) > k:
        return
    refiner = _refiner(case)
    key = case["rng"].permutation(n).astype(np.int64)
    sp = _Checked(refiner, key, k, tries)
    out = _levels(sp, n, k, None)
    assert out is not None
    assert sp.checked >= (1 if k >= 3 else 0)  # a node of two classes or more below the root


class _Gathered(_Splitter):
    """A splitter that checks, at every level, that the per-row arrays it carries in the level's order
    are the rows' own, and, for every attempt, that its parts' span costs (read from the cut search for
    admissible cuts) are those :meth:`_Splitter._span_cost` computes from the parts' rows."""

    levels = 0
    attempts = 0

    def level(self, lv: _Level) -> _Level:
        if lv.rows is not None:
            assert np.array_equal(lv.rows.codes, self.codes[:, lv.perm])
            assert np.array_equal(lv.rows.value, self.value[lv.perm])
            assert np.array_equal(lv.rows.key, self.key[lv.perm])
            self.levels += 1
        return super().level(lv)

    def _attempt(
        self,
        at: _Rows,
        seg: np.ndarray,
        lens: np.ndarray,
        ks: np.ndarray,
        qi: np.ndarray,
        sized: np.ndarray,
        lo: int = 0,
    ) -> Cut:
        cut = super()._attempt(at, seg, lens, ks, qi, sized, lo)
        parts = np.stack([cut.cut, lens - cut.cut], axis=1).reshape(-1)
        want = self._span_cost(at.part(lo, len(seg)).codes, cut.rows, parts).reshape(len(lens), -1)
        assert np.array_equal(cut.spans, want)
        self.attempts += int((~cut.near).sum())
        return cut


@settings(max_examples=100, deadline=None)
@given(case=tables(), tries=st.integers(1, 3))
def test_carried_rows_and_read_span_costs_are_the_rows_own(case: dict[str, Any], tries: int) -> None:
    """The split's level-ordered codes, SA values and keys, and the span costs it reads from the cut
    pricing, are those gathered and computed from the rows (so the cuts are those of the rows)."""
    value = case["value"]
    n = len(value)
    k = max_l_schedule(np.bincount(value).tolist(), case["l"]).classes
    if k < 2 or int(np.bincount(value).max()) > k:
        return
    refiner = _refiner(case)
    key = case["rng"].permutation(n).astype(np.int64)
    sp = _Gathered(refiner, key, k, tries)
    out = _levels(sp, n, k, None)
    assert out is not None
    assert sp.levels >= (1 if k >= 3 else 0)


@settings(max_examples=200, deadline=None)
@given(s=st.integers(1, 4), data=st.data())
def test_near_prefix_reads_the_cut_searchs_occurrences(s: int, data: Any) -> None:
    """The near-prefix split of some whole nodes, given the occurrence numbers counted over every node
    of the level (sliced to its rows), is the one it makes counting them itself."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    ks = np.array(data.draw(st.lists(st.integers(2, 8), min_size=1, max_size=6)), dtype=np.int64)
    lens = np.array([int(rng.integers(k * s, k * (s + 1) + 1)) for k in ks.tolist()], dtype=np.int64)
    seg = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
    # values at most k' times in each node (the near-prefix split's precondition)
    value = np.concatenate(
        [rng.permutation(np.arange(n) % -(-n // k)) for n, k in zip(lens.tolist(), ks.tolist(), strict=True)]
    ).astype(np.int64)
    near = np.flatnonzero(rng.random(len(lens)) < 0.6)
    if not len(near):
        return
    counted = occurrences(value, seg)
    inner = np.isin(seg, near)
    sub = np.searchsorted(near, seg[inner])
    want = _near_prefix(value[inner], sub, lens[near], ks[near], s)
    got = _near_prefix(value[inner], sub, lens[near], ks[near], s, (counted[0][inner], counted[1][inner]))
    for w, g in zip(want, got, strict=True):
        assert np.array_equal(w, g)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 400), st.integers(1, 9), st.integers(1, 30))
def test_sort_orders_rows_by_node_code_and_key(seed: int, n: int, nodes: int, codes: int) -> None:
    """An attempt's sort (one int64 key, numpy's stable sort) is the order by (node, code, locality key),
    also where a node's rows come already sorted along its code (a parent's cut)."""
    rng = np.random.default_rng(seed)
    seg = np.sort(rng.integers(0, nodes, n)).astype(np.int32)
    code = rng.integers(0, codes, n).astype(np.int64)
    key = rng.permutation(n).astype(np.int64)
    if rng.random() < 0.5:  # runs already in order within each node
        pre = np.lexsort((key, code, seg))
        code, key = code[pre], key[pre]
    expected = np.lexsort((key, code, seg))
    assert np.array_equal(sort_rows(seg, code, key, n), expected)


def _same_refined(a: Any, b: Any) -> None:
    assert np.array_equal(a.gid, b.gid)
    assert (a.il_before, a.il_after, a.passes, a.moves, a.sideways) == (
        b.il_before,
        b.il_after,
        b.passes,
        b.moves,
        b.sideways,
    )


@settings(max_examples=60, deadline=None)
@given(case=tables())
def test_the_split_members_carried_into_the_exchange_search_are_its_own(case: dict[str, Any]) -> None:
    """The split's members and costs (computed for its IL) taken over by the exchange search give the
    same search as computing them there; members of another partition are not taken for this one."""
    inputs = _feasible(case)
    if inputs is None:
        return
    refiner, key, k = inputs
    out = split(refiner, key, k)
    assert out is not None
    held = refiner.members(out.gid)
    assert held.il == partition_cost(refiner, out.gid)
    plain = _refiner(case).run(out.gid.copy())
    _same_refined(refiner.run(out.gid, held), plain)
    # the members of the greedy-like partition (rows dealt in order) offered with the split's: ignored
    other = refiner.members(np.arange(len(key)) % k)
    _same_refined(_refiner(case).run(out.gid.copy(), other), plain)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(1, 60), qis=st.integers(1, 4))
def test_rows_taken_into_a_level_piece_by_piece_are_the_whole_take(data: Any, n: int, qis: int) -> None:
    """The next level's rows written piece by piece (each piece's own permutation, from its first row)
    are the whole level's gather through the pieces' permutations put side by side."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    at = _Rows(
        rng.integers(0, 50, (qis, n)).astype(np.int32),
        rng.integers(0, 9, n).astype(np.int16),
        rng.permutation(n).astype(np.int32),
    )
    cuts = sorted(set(data.draw(st.lists(st.integers(1, n), max_size=5))) - {n})
    bounds = [0, *cuts, n]
    perm = np.concatenate([lo + rng.permutation(hi - lo) for lo, hi in itertools.pairwise(bounds)])
    out = _Rows(np.empty_like(at.codes), np.empty_like(at.value), np.empty_like(at.key))
    for lo, hi in itertools.pairwise(bounds):
        at.part(lo, hi - lo).take_into(perm[lo:hi] - lo, out, lo)
    want = at.take(perm)
    assert np.array_equal(out.codes, want.codes)
    assert np.array_equal(out.value, want.value) and np.array_equal(out.key, want.key)


@settings(max_examples=200, deadline=None)
@given(s=st.integers(2, 5), data=st.data())
def test_cuts_by_blocks_of_s_rows_are_those_over_every_position(s: int, data: Any) -> None:
    """Where every node holds k'·s rows (k' divides n', as in the 1M table), :func:`_cuts` bounds the
    values' counts by blocks of s rows: the cuts and k1 are those of the row-by-row search over every
    position, on nodes whose values come near k' times (cuts both admissible and not)."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    ks = np.array(data.draw(st.lists(st.integers(2, 9), min_size=1, max_size=6)), dtype=np.int64)
    lens = ks * s
    seg = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
    value = np.concatenate(
        [rng.permutation(np.arange(n) % data.draw(st.integers(s, n))) for n in lens.tolist()]
    ).astype(np.int64)
    table = rng.integers(0, data.draw(st.integers(1, 6)), len(seg)).astype(np.float64)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    every = np.flatnonzero(np.arange(len(seg)) != starts[seg])
    want = _cuts(value, seg, lens, ks, s, lambda j: table[j], j=every)
    got = _cuts(value, seg, lens, ks, s, lambda j: table[j])
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


@settings(max_examples=100, deadline=None)
@given(case=tables(), s=st.integers(2, 4), data=st.data())
def test_position_prices_by_blocks_of_s_rows_are_the_parts_costs(
    case: dict[str, Any], s: int, data: Any
) -> None:
    """Nodes of whole blocks of s rows cut at multiples of s are priced by blocks of s rows: every
    position's price is that of the blocks between positions, and Σ over the parts of rows × span cost."""
    value = case["value"]
    n = len(value) // s * s
    if n < 2 * s:
        return
    refiner = _refiner(case)
    sp = _Splitter(refiner, np.arange(len(value), dtype=np.int64), len(value) // s, 1)
    sp.s = s
    lens = s * np.array(data.draw(st.lists(st.integers(2, 5), min_size=1, max_size=6)), dtype=np.int64)
    lens = lens[np.cumsum(lens) <= n]
    if not len(lens):
        return
    rows = case["rng"].permutation(len(value))[: int(lens.sum())].astype(np.int64)
    seg = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    j = np.flatnonzero((np.arange(len(seg)) != starts[seg]) & ((np.arange(len(seg)) - starts[seg]) % s == 0))
    j = j[case["rng"].random(len(j)) < data.draw(st.floats(0.2, 1.0))]
    got = sp._price(sp.codes, rows, seg, j)
    sp.s = 1  # the blocks between positions
    assert np.array_equal(got, sp._price(sp.codes, rows, seg, j))
    for jj, price in zip(j.tolist(), got.tolist(), strict=True):
        a, b = starts[seg[jj]], starts[seg[jj]] + lens[seg[jj]]
        parts = np.array([jj - a, b - jj], dtype=np.int64)
        assert price == (sp._span_cost(sp.codes, rows[a:b], parts).sum(axis=1) * parts).sum()


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.integers(0, 300), min_size=1, max_size=200),
    nodes=st.integers(1, 6),
    seed=st.integers(0, 2**16),
)
def test_occurrences_count_each_value_within_its_node(values: list[int], nodes: int, seed: int) -> None:
    """:func:`occurrences`: per row, its value's occurrences in its node up to it and from it on,
    counted one by one (values of one byte and of more)."""
    value = np.array(values, dtype=np.int64)
    seg = np.sort(np.random.default_rng(seed).integers(0, nodes, len(value)))
    occ, rest = occurrences(value, seg)
    for i in range(len(value)):
        same = (seg == seg[i]) & (value == value[i])
        assert occ[i] == same[: i + 1].sum() and rest[i] == same[i:].sum()
