"""The Hilbert index (Skilling 2004) and the Hilbert-l grouping (SPEC §1.12), pure numpy/Python."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms.hilbert.curve import (
    SMALL_IDS,
    _pick_groups,
    bits_for,
    curve_order,
    hilbert_keys,
    hilbert_l_groups,
    stars_of,
)
from ldiv_db.algorithms.tp.core import l_eligible


def order_of(cells: list[tuple[int, ...]], bits: int) -> list[tuple[int, ...]]:
    keys = hilbert_keys(cells, bits)
    return [cells[i] for i in np.argsort(keys, kind="stable")]


def test_vectors_2d_b1() -> None:
    """SPEC §1.12(b): (0,0)→0, (0,1)→1, (1,1)→2, (1,0)→3."""
    assert hilbert_keys([(0, 0), (0, 1), (1, 1), (1, 0)], 1).tolist() == [0, 1, 2, 3]


def test_vectors_2d_b2() -> None:
    cells = [(x, y) for x in range(4) for y in range(4)]
    expected = [(0, 0), (1, 0), (1, 1), (0, 1), (0, 2), (0, 3), (1, 3), (1, 2),
                (2, 2), (2, 3), (3, 3), (3, 2), (3, 1), (2, 1), (2, 0), (3, 0)]  # fmt: skip
    assert order_of(cells, 2) == expected


def test_vectors_3d_b1() -> None:
    cells = list(itertools.product(range(2), repeat=3))
    assert order_of(cells, 1) == [
        (0, 0, 0),
        (0, 0, 1),
        (0, 1, 1),
        (0, 1, 0),
        (1, 1, 0),
        (1, 1, 1),
        (1, 0, 1),
        (1, 0, 0),
    ]


def test_e_tp4_keys() -> None:
    """(20,M,HS)→1, (21,M,HS)→2, (61,F,PhD)→56, (60,F,PhD)→59 with age ranks 0..3, F=0/M=1, HS=0/PhD=1."""
    assert hilbert_keys([(0, 1, 0), (1, 1, 0), (3, 0, 1), (2, 0, 1)], 2).tolist() == [1, 2, 56, 59]


@pytest.mark.parametrize(("d", "b"), [(2, 2), (3, 3), (2, 4), (4, 2), (1, 3)])
def test_curve_is_a_bijection_of_adjacent_cells(d: int, b: int) -> None:
    """Consecutive indices are grid neighbours, and every index 0..2^(db)−1 occurs once."""
    cells = list(itertools.product(range(2**b), repeat=d))
    keys = hilbert_keys(cells, b)
    assert sorted(keys.tolist()) == list(range(2 ** (d * b)))
    ordered = [cells[i] for i in np.argsort(keys)]
    for p, q in itertools.pairwise(ordered):
        assert sum(abs(a - c) for a, c in zip(p, q, strict=True)) == 1


def test_wide_keys_are_python_ints() -> None:
    """d·b > 63 bits: exact keys as Python ints, in the same order as a narrower prefix of axes."""
    pts = np.array([[5, 3, 1, 7, 2, 6, 4, 0, 1, 2], [0] * 10, [255] * 10])
    keys = hilbert_keys(pts, 8)
    assert keys.dtype == object and keys[1] == 0
    assert all(isinstance(k, int) for k in keys.tolist())


def _keys_by_planes(coords: np.ndarray, bits: int) -> list[int]:
    """Skilling's AxesToTranspose and the interleave written out per row, on Python ints (the reference
    the vectorized, narrow-typed :func:`hilbert_keys` must agree with)."""
    out = []
    for row in coords.tolist():
        x, d = list(row), len(row)
        q = 1 << (bits - 1)
        while q > 1:
            p = q - 1
            for i in range(d):
                if x[i] & q:
                    x[0] ^= p
                else:
                    t = (x[0] ^ x[i]) & p
                    x[0] ^= t
                    x[i] ^= t
            q >>= 1
        for i in range(1, d):
            x[i] ^= x[i - 1]
        t, q = 0, 1 << (bits - 1)
        while q > 1:
            if x[d - 1] & q:
                t ^= q - 1
            q >>= 1
        key = 0
        for plane in range(bits - 1, -1, -1):
            for i in range(d):
                key = (key << 1) | (((x[i] ^ t) >> plane) & 1)
        out.append(key)
    return out


@pytest.mark.parametrize(("d", "bits"), [(5, 7), (3, 8), (2, 9), (4, 15), (2, 17), (1, 40), (3, 21)])
def test_keys_match_the_per_row_transform(d: int, bits: int) -> None:
    """Every width of the narrow types and both ways of spreading the bits (a table up to 16 bits)."""
    rng = np.random.default_rng(d * 100 + bits)
    coords = rng.integers(0, 1 << bits, size=(300, d), dtype=np.int64)
    coords[0] = (1 << bits) - 1
    assert hilbert_keys(coords, bits).tolist() == _keys_by_planes(coords, bits)


def test_bits_for() -> None:
    assert bits_for([1]) == 1 and bits_for([2]) == 1 and bits_for([3]) == 2 and bits_for([4, 74]) == 7


def test_coordinates_out_of_range() -> None:
    with pytest.raises(ValueError, match="coordinates"):
        hilbert_keys([(4, 0)], 2)


def test_e_tp4_residue_split() -> None:
    """SPEC §1.11 E-TP4: R = rows {2,3,6,7,10,11,14,15} splits into {2,6},{3,7},{10,14},{11,15}: 8 stars."""
    rids = np.array([2, 3, 6, 7, 10, 11, 14, 15]) - 1
    coords = np.array(
        [(0, 1, 0), (0, 1, 0), (1, 1, 0), (1, 1, 0), (2, 0, 1), (2, 0, 1), (3, 0, 1), (3, 0, 1)]
    )
    sids = np.array([1, 1, 2, 2, 1, 1, 2, 2])  # flu, flu, cold, cold, ...
    g = hilbert_l_groups(coords, sids, rids, 2, bits=2)
    groups = sorted(sorted(int(rids[i]) + 1 for i in np.flatnonzero(g.group == k)) for k in range(g.groups))
    assert groups == [[2, 6], [3, 7], [10, 14], [11, 15]]
    assert g.stars == 8 and stars_of(coords, np.arange(8)) == g.stars_whole == 24


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda l: st.tuples(
            st.just(l),
            st.lists(
                st.tuples(st.integers(0, l + 2), st.integers(0, 5), st.integers(0, 5), st.integers(0, 3)),
                min_size=l,
                max_size=40,
            ),
        )
    )
)
def test_groups_are_l_eligible(case: tuple[int, list[tuple[int, int, int, int]]]) -> None:
    """SPEC §1.12(c): every group of an l-eligible input is l-eligible, every row is placed once, and
    the reported stars are Definition 1's."""
    l, rows = case
    sids = np.array([r[0] for r in rows])
    counts: dict[int, int] = {}
    for s in sids.tolist():
        counts[s] = counts.get(s, 0) + 1
    assume(l_eligible(counts, l))
    coords = np.array([r[1:] for r in rows], dtype=np.int64)
    g = hilbert_l_groups(coords, sids, np.arange(len(rows)), l)
    assert (g.group >= 0).all() and g.group.max() == g.groups - 1
    stars = 0
    for k in range(g.groups):
        members = np.flatnonzero(g.group == k)
        group_counts: dict[int, int] = {}
        for s in sids[members].tolist():
            group_counts[s] = group_counts.get(s, 0) + 1
        assert l_eligible(group_counts, l)
        stars += stars_of(coords, members)
    assert stars == g.stars
    # every row as one group: its size times the columns holding two values or more
    assert g.stars_whole == len(rows) * sum(len(set(col)) > 1 for col in coords.T.tolist())


def _rule_groups(pos_sid: list[int], l: int) -> tuple[list[list[int]], list[int], int | None]:
    """SPEC §1.12(c)'s bucket rule as the SPEC's pseudo-code states it, every group chosen by looking at
    every non-empty bucket: the reference the heap of heads in ``_pick_groups`` must agree with."""
    buckets: dict[int, list[int]] = {}
    for pos, s in enumerate(pos_sid):
        buckets.setdefault(s, []).append(pos)
    groups: list[list[int]] = []
    max_l_from = None
    while sum(1 for b in buckets.values() if b) >= l:
        live = [s for s, b in buckets.items() if b]
        n = sum(len(buckets[s]) for s in live)
        crit = [s for s in live if len(buckets[s]) * l > n - l]
        if max_l_from is not None or len(crit) > l:
            max_l_from = len(groups) if max_l_from is None else max_l_from
            chosen = sorted(live, key=lambda s: (-len(buckets[s]), buckets[s][0]))[:l]
        else:
            chosen = list(crit)
            anchor = min(live, key=lambda s: buckets[s][0])
            chosen += [anchor] if anchor not in chosen else []
            rest = sorted((s for s in live if s not in chosen), key=lambda s: buckets[s][0])
            chosen += rest[: max(0, l - len(chosen))]
        groups.append([buckets[s].pop(0) for s in chosen])
    leftovers = [p for s in sorted(buckets) for p in buckets[s]]
    return groups, leftovers, max_l_from


@pytest.mark.parametrize("shift", [0, SMALL_IDS])
@pytest.mark.parametrize("alpha", [0.3, 1.0, 5.0])
def test_pick_groups_follows_the_rule(alpha: float, shift: int) -> None:
    """The heap of heads takes the same groups as the rule on every bucket (skewed SA distributions
    reach the critical buckets and Max-l), and the same leftovers and Max-l start; with SA ids below
    SMALL_IDS (sorted as 16-bit keys, counted by a bincount) and above it (np.unique)."""
    rng = np.random.default_rng(11)
    modes = set()
    for _ in range(400):
        m, l = int(rng.integers(1, 12)), int(rng.integers(2, 6))
        sids = rng.choice(m, size=int(rng.integers(l, 200)), p=rng.dirichlet(np.full(m, alpha)))
        expected = _rule_groups(sids.tolist(), l)
        if not expected[0]:
            continue
        flat, sizes, leftovers, max_l_from = _pick_groups(sids.astype(np.int64) + shift, l)
        groups = np.split(flat, np.cumsum(sizes)[:-1])
        assert [sorted(g.tolist()) for g in groups] == [sorted(g) for g in expected[0]]
        assert (sorted(leftovers), max_l_from) == (sorted(expected[1]), expected[2])
        modes.add(max_l_from is None)
    assert modes == {True, False}  # both phases were exercised


@pytest.mark.parametrize("seed", range(40))
def test_curve_order_is_lexsorts(seed: int) -> None:
    """curve_order packs the key with each row's rank among the tie keys into one sort where the bits
    fit; the order must be lexsort's (key, then tie key) for keys with many ties, tie keys spanning 62
    bits, repeated tie keys (lexsort's stable fallback) and keys too wide to pack."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000))
    key_bits = [3, 20, 44, 62][seed % 4]
    keys = rng.integers(0, 2**key_bits, n).astype(np.uint64)
    ties = rng.integers(0, 2**62, n) if seed % 3 else rng.integers(0, max(2, n // 3), n)
    got = curve_order(keys, ties)
    assert got.dtype == np.int64
    assert got.tolist() == np.lexsort((ties, keys)).tolist()


@pytest.mark.parametrize("bits", [1, 7, 8, 9, 16, 17, 33])
def test_stars_at_the_edges_of_the_narrow_types(bits: int) -> None:
    """The stars are counted on the coordinates narrowed to the fewest unsigned bytes that hold ``bits``
    bits: coordinates at 0 and at 2**bits - 1 (the largest that type must hold) give Definition 1's stars,
    and coordinates given in that type (as split_rows gives them) the same groups as int64 ones, Max-l
    and its leftovers included (skewed SA values)."""
    rng = np.random.default_rng(bits)
    top = (1 << bits) - 1
    word = next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if bits <= np.iinfo(t).bits)
    placed_leftovers = False
    for _ in range(40):
        n, l, m = int(rng.integers(8, 80)), int(rng.integers(2, 4)), int(rng.integers(3, 7))
        sids = rng.choice(m, size=n, p=rng.dirichlet(np.full(m, 0.5)))
        if not l_eligible({int(s): int(c) for s, c in enumerate(np.bincount(sids))}, l):
            continue
        coords = rng.choice(np.array([0, top, top // 2], dtype=np.int64), size=(n, 3))
        coords[:, 2] = top  # one constant column at the top of the range: never starred
        g = hilbert_l_groups(coords, sids, np.arange(n), l, bits=bits)
        expected = sum(stars_of(coords, np.flatnonzero(g.group == k)) for k in range(g.groups))
        assert g.stars == expected
        assert g.stars_whole == n * sum(len(set(col)) > 1 for col in coords.T.tolist())
        h = hilbert_l_groups(coords.astype(word), sids, np.arange(n), l, bits=bits)
        assert h.group.tolist() == g.group.tolist()
        assert (h.stars, h.stars_whole, h.leftovers) == (g.stars, g.stars_whole, g.leftovers)
        placed_leftovers |= g.leftovers > 0
    assert placed_leftovers  # Max-l left rows to place on some of them
