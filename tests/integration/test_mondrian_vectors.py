"""Mondrian's compressed input (``sql/mondrian/vectors.sql``): per QI vector its ordinals and per SA the
count of each value under its code — the dense rank of the value's spelling in the bytes' order, a NULL
(``--null-as-value``) a value of its own, ranked last — against a brute force over the rows in Python. The
statement returns its rows in no order; ``Vectors`` sorts them: rows in any order give its arrays."""

from __future__ import annotations

from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pytest

from ldiv_db.algorithms.mondrian.vectors import Vectors
from ldiv_db.sqlgen.render import Ident, TableRef, render


def test_vectors_count_every_spelling_and_null_under_its_code() -> None:
    con = duckdb.connect()
    con.execute(
        """CREATE TABLE "r it's" AS SELECT i AS rid, CAST(i % 7 % 3 AS DOUBLE) AS o1,
             CASE WHEN i % 11 = 0 THEN NULL ELSE CAST(i % 2 AS DOUBLE) END AS o2,
             CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN 'flu' WHEN i % 5 = 2 THEN 'FLU'
                  ELSE 'x' || (i % 4) END AS s1,
             CASE WHEN i % 6 = 0 THEN NULL ELSE 'b' || (i % 3) END AS s2
           FROM range(500) t(i)"""
    )
    q = render(
        "mondrian/vectors.sql",
        rows=TableRef("r it's"),
        ords=[Ident("o1"), Ident("o2")],
        sas=[Ident("s1"), Ident("s2")],
    )
    found = con.execute(q.sql).fetchall()

    rows = con.execute('SELECT o1, o2, s1, s2 FROM "r it\'s"').fetchall()
    expected = []
    for s in (1, 2):
        spellings = sorted({r[1 + s] for r in rows if r[1 + s] is not None}, key=lambda v: v.encode())
        if any(r[1 + s] is None for r in rows):
            spellings.append(None)  # NULLS LAST
        code = {v: i for i, v in enumerate(spellings)}
        # a vector is its ordinals, a NULL ordinal one value of its own (counted as missing)
        counts: dict[tuple[float, float | None, int], int] = {}
        for o1, o2, *sa in rows:
            key = (o1, o2, code[sa[s - 1]])
            counts[key] = counts.get(key, 0) + 1
        expected += [(o1, o2, n if o2 is None else 0, s, v, n) for (o1, o2, v), n in counts.items()]

    def order(t: tuple[float, float | None, int, int, int, int]) -> tuple[float, float, int, int]:
        return (t[0], -1.0 if t[1] is None else t[1], t[3], t[4])

    expected.sort(key=order)
    assert sorted(found, key=order) == expected
    assert {t[4] for t in found if t[3] == 1} == set(range(7))  # 'FLU', 'flu', x0..x3, NULL
    assert {(t[0], t[1]) for t in found} == {(a, b) for a in (0.0, 1.0, 2.0) for b in (0.0, 1.0, None)}


def test_vectors_in_any_row_order_give_the_same_arrays() -> None:
    # 3 vectors, 2 SAs: the arrays written out by hand in (vector, s, v) order, the vectors numbered in
    # the order of their ordinals (o1 first)
    frame = pd.DataFrame(
        [
            (1.0, 5.0, 0, 1, 0, 4),
            (1.0, 5.0, 0, 1, 2, 1),
            (1.0, 5.0, 0, 2, 1, 5),
            (1.0, 7.0, 0, 1, 1, 2),
            (1.0, 7.0, 0, 2, 0, 2),
            (3.0, 5.0, 0, 1, 0, 3),
            (3.0, 5.0, 0, 1, 1, 6),
            (3.0, 5.0, 0, 2, 0, 9),
        ],
        columns=["o1", "o2", "missing", "s", "v", "n"],
    )
    for seed in range(5):
        shuffled = frame.sample(frac=1, random_state=seed).reset_index(drop=True)
        data = Vectors(shuffled, 2, 2, ["numeric", "numeric"])
        assert data.vid.tolist() == [0, 1, 2]
        assert data.ords.tolist() == [[1.0, 5.0], [1.0, 7.0], [3.0, 5.0]]
        assert [a.tolist() for a in data.sa_vec] == [[0, 0, 1, 2, 2], [0, 1, 2]]
        assert [a.tolist() for a in data.sa_val] == [[0, 2, 1, 0, 1], [1, 0, 0]]
        assert [a.tolist() for a in data.sa_n] == [[4, 1, 2, 3, 6], [5, 2, 9]]
        assert data.rows.tolist() == [5, 2, 9]
        assert [c.tolist() for c in data.codes] == [[0, 0, 1], [0, 1, 0]]
        assert np.array_equal(data.values[1], [5.0, 7.0])


def _vectors_by_hand(
    frame: pd.DataFrame, d: int
) -> tuple[list[tuple[float, ...]], dict[tuple[Any, ...], int]]:
    """The distinct ordinal vectors sorted (QI 1 first), and per (vector number, s, v) its count."""
    ords = [f"o{i}" for i in range(1, d + 1)]
    vectors = sorted({tuple(r) for r in frame[ords].itertuples(index=False)})
    number = {vec: i for i, vec in enumerate(vectors)}
    cells = {
        (number[tuple(r[:d])], int(r[d]), int(r[d + 1])): int(r[d + 2])
        for r in frame[[*ords, "s", "v", "n"]].itertuples(index=False)
    }
    return vectors, cells


@pytest.mark.parametrize("cells", [2_000, 80_000])  # one integer key sorts them; past 2^62, a lexsort
def test_vectors_are_numbered_in_the_order_of_their_ordinals(cells: int) -> None:
    rng = np.random.default_rng(cells)
    d, k = 4, 2
    # few distinct ordinals per QI (many cells share a vector), or each cell its own (codes past 2^62)
    spread = 3 if cells < 10_000 else 10**9
    ords = rng.integers(0, spread, size=(cells, d)).astype(np.float64) / 4
    frame = pd.DataFrame(ords, columns=[f"o{i}" for i in range(1, d + 1)])
    frame["missing"] = 0
    frame["s"] = rng.integers(1, k + 1, size=cells)
    frame["v"] = rng.integers(0, 300, size=cells)
    frame = frame.drop_duplicates(subset=[*frame.columns[:d], "s", "v"]).reset_index(drop=True)
    frame["n"] = rng.integers(1, 9, size=len(frame))
    if cells > 10_000:
        sizes = [frame[f"o{i}"].nunique() for i in range(1, d + 1)]
        assert float(np.prod(np.asarray(sizes, dtype=np.float64))) >= 2.0**62
    data = Vectors(frame.sample(frac=1, random_state=1), d, k, ["numeric"] * d)
    vectors, expected = _vectors_by_hand(frame, d)
    assert data.vid.tolist() == list(range(len(vectors)))
    assert [tuple(r) for r in data.ords.tolist()] == vectors
    found = {
        (int(vec), j + 1, int(val)): int(n)
        for j in range(k)
        for vec, val, n in zip(data.sa_vec[j], data.sa_val[j], data.sa_n[j], strict=True)
    }
    assert found == expected
    for a in range(d):  # each vector's code is its ordinal's position among the QI's distinct values
        assert np.array_equal(data.values[a][data.codes[a]], data.ords[:, a])
        assert np.array_equal(data.values[a], np.unique(frame[f"o{a + 1}"]))
