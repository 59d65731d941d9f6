"""Mondrian's per-partition statistics (ldiv_db/algorithms/mondrian: _median, _half_counts,
_half_distinct) against a brute force over the rows, on random partitions (the histograms: dense and by
sorting); and its rounds (``_Partitioner``) against strict Mondrian written out level by level over the
QI vectors: the same class, numbered the same, for every vector."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms import mondrian
from ldiv_db.algorithms.mondrian import vectors as mondrian_vectors


def _brute_median(
    x: list[float], p: list[int], w: list[int], n_parts: int
) -> list[tuple[float, float, float]]:
    out = []
    for part in range(n_parts):
        rows = sorted(xx for xx, pp, ww in zip(x, p, w, strict=True) if pp == part for _ in range(ww))
        out.append((rows[0], rows[-1], rows[(len(rows) + 1) // 2 - 1]))  # lower median: the ⌈n/2⌉-th
    return out


vectors = st.lists(
    st.tuples(st.integers(0, 4), st.integers(0, 6), st.integers(1, 5)), min_size=1, max_size=40
)


@given(rows=vectors)
@settings(max_examples=80, deadline=None)
def test_median_lo_hi(rows: list[tuple[int, int, int]]) -> None:
    parts = sorted({r[0] for r in rows})
    rows = sorted(rows, key=lambda r: (r[0], r[1]))  # grouped by partition, ascending by value within
    p = np.array([parts.index(r[0]) for r in rows], dtype=np.int64)
    x = np.array([float(r[1]) * 1.5 for r in rows])
    w = np.array([r[2] for r in rows], dtype=np.int64)
    values, codes = np.unique(x, return_inverse=True)
    first = np.searchsorted(p, np.arange(len(parts)))
    total = np.bincount(p, weights=w).astype(np.int64)
    at = mondrian._median(codes.reshape(-1), w, first, total)
    lo, hi, med = (values[i] for i in at)  # positions among the distinct values
    got = list(zip(lo.tolist(), hi.tolist(), med.tolist(), strict=True))
    assert got == _brute_median(x.tolist(), p.tolist(), w.tolist(), len(parts))


@pytest.mark.parametrize("dense", [True, False])
@given(rows=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(1, 9)), max_size=40))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_half_counts(rows: list[tuple[int, int, int]], dense: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    halves, n_val = 6, 4
    key = np.array([v * halves + h for h, v, _ in rows], dtype=np.int64)  # value-major
    n = np.array([c for _, _, c in rows], dtype=np.int64)
    with monkeypatch.context() as m:
        m.setattr(mondrian, "DENSE_CELLS", 10**9 if dense else 0)
        size, distinct, top = mondrian._half_counts(key, n, halves, n_val)
        distinct_alone = mondrian._half_distinct(key, halves, n_val)
    for h in range(halves):
        counts: dict[int, int] = {}
        for hh, v, c in rows:
            if hh == h:
                counts[v] = counts.get(v, 0) + c
        assert int(size[h]) == sum(counts.values())
        assert int(distinct[h]) == len(counts)
        assert int(distinct_alone[h]) == len(counts)
        assert int(top[h]) == max(counts.values(), default=0)


def _brute_rounds(
    vals: list[list[int]], sa: list[dict[int, int]], spans: list[float], l_value: int, form: str
) -> list[int]:
    """Strict Mondrian over vectors (QI values ``vals``, SA value counts ``sa``), level by level: a level's
    partitions in order, the closed ones numbered in that order, each cut one's left half then its right
    half forming the next level."""

    def passes(half: list[int]) -> bool:
        counts: dict[int, int] = {}
        for v in half:
            for value, n in sa[v].items():
                counts[value] = counts.get(value, 0) + n
        if form == "frequency":
            return bool(counts) and l_value * max(counts.values()) <= sum(counts.values())
        return len(counts) >= max(l_value, 1)

    def cut(part: list[int]) -> tuple[list[int], list[int]] | None:
        def width(a: int) -> float:
            xs = [float(vals[v][a]) for v in part]
            return (max(xs) - min(xs)) / spans[a] if spans[a] > 0 else 0.0

        for a in sorted(range(len(spans)), key=lambda a: (-width(a), a)):
            if width(a) <= 0:
                continue
            xs = sorted(vals[v][a] for v in part for _ in range(sum(sa[v].values())))
            m = xs[(len(xs) + 1) // 2 - 1]
            left = [v for v in part if (vals[v][a] < m if m == xs[-1] else vals[v][a] <= m)]
            right = [v for v in part if v not in left]
            if left and right and passes(left) and passes(right):
                return left, right
        return None

    gid = [-1] * len(vals)
    level, next_gid = [list(range(len(vals)))] if vals else [], 0
    while level:
        below: list[list[int]] = []
        for part in level:
            halves = cut(part)
            if halves is None:
                for v in part:
                    gid[v] = next_gid
                next_gid += 1
            else:
                below.extend(halves)
        level = below
    return gid


@st.composite
def vector_tables(draw: st.DrawFn) -> tuple[list[list[int]], list[dict[int, int]], int, str]:
    d = draw(st.integers(1, 3))
    n = draw(st.integers(1, 30))
    vals = draw(
        st.lists(st.lists(st.integers(0, 6), min_size=d, max_size=d), min_size=n, max_size=n, unique_by=tuple)
    )
    # SA codes as they come: across a 64-bit word, or past 255 (the distinct test then counts cells,
    # mondrian.MASK_WORDS)
    base = draw(st.sampled_from([0, 60, 300]))
    sa = [
        draw(st.dictionaries(st.integers(base, base + 5), st.integers(1, 4), min_size=1, max_size=4))
        for _ in range(n)
    ]
    return vals, sa, draw(st.integers(1, 4)), draw(st.sampled_from(mondrian.FORMS))


@given(table=vector_tables())
@settings(max_examples=150, deadline=None)
def test_rounds_against_mondrian_level_by_level(
    table: tuple[list[list[int]], list[dict[int, int]], int, str],
) -> None:
    vals, sa, l_value, form = table
    d = len(vals[0])
    frame = pd.DataFrame(
        [(*map(float, vals[i]), 0, 1, value, n) for i in range(len(vals)) for value, n in sa[i].items()],
        columns=[*(f"o{i}" for i in range(1, d + 1)), "missing", "s", "v", "n"],
    )
    kinds = ["numeric"] * d
    data = mondrian_vectors.Vectors(frame, d, 1, kinds)
    spans = mondrian._spans(data, kinds, [None] * d)
    # the vectors as Vectors numbers them (in the order of their ordinals)
    where = {tuple(v): i for i, v in enumerate(vals)}
    at = [where[tuple(int(x) for x in row)] for row in data.ords.tolist()]
    brute = _brute_rounds(vals, sa, spans, l_value, form)
    expected = [brute[i] for i in at]
    for radix_keys in (mondrian.RADIX_KEYS, 0):  # the halves reordered by a radix sort, and by their places
        with pytest.MonkeyPatch.context() as m:
            m.setattr(mondrian, "RADIX_KEYS", radix_keys)
            part = mondrian._Partitioner(data, kinds, spans, [None] * d, [l_value], form)
            assert part.run().tolist() == expected


@given(
    values=st.lists(
        st.one_of(
            st.integers(-70, 70),
            st.sampled_from([-0.0, 0.5, -2.25, 2.0**53 - 1, -(2.0**53), 2.0**53, 1e300, float("nan")]),
        ),
        max_size=60,
    ),
    spread=st.sampled_from([1, 1000, 10**6]),
)
@settings(max_examples=200, deadline=None)
def test_ranks_are_the_sorted_distinct_values(values: list[int | float], spread: int) -> None:
    """A QI's codes by a table of the integers present are np.unique's: the same distinct values and the
    same position of every entry (integers spread wide, fractions, NaN and magnitudes past 2^53 sorted)."""
    col = np.array([float(v * spread) if isinstance(v, int) else v for v in values], dtype=np.float64)
    got_values, got_codes = mondrian_vectors.ranks(col)
    want_values = np.unique(col)
    assert got_values.dtype == col.dtype and got_codes.dtype == np.int64
    np.testing.assert_array_equal(got_values, want_values)
    np.testing.assert_array_equal(got_codes, np.searchsorted(want_values, col))
