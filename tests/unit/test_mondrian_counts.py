"""Mondrian's per-partition statistics (ldiv_db/algorithms/mondrian: _median, _half_counts,
_half_distinct): the dense histograms and the sorting fallback against a brute force over the rows, on
random partitions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldiv_db.algorithms import mondrian


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


@pytest.mark.parametrize("dense", [True, False])
@given(rows=vectors)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_median_lo_hi(rows: list[tuple[int, int, int]], dense: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    parts = sorted({r[0] for r in rows})
    p = np.array([parts.index(r[0]) for r in rows], dtype=np.int64)
    x = np.array([float(r[1]) * 1.5 for r in rows])
    w = np.array([r[2] for r in rows], dtype=np.int64)
    values, codes = np.unique(x, return_inverse=True)
    with monkeypatch.context() as m:
        m.setattr(mondrian, "DENSE_CELLS", 10**9 if dense else 0)
        at = mondrian._median(codes.reshape(-1), p, w, len(values), len(parts))
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
