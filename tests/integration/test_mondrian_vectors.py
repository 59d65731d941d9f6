"""Mondrian's compressed input (``sql/mondrian/vectors.sql``): per QI vector its ordinals and per SA the
count of each value under its code — the dense rank of the value's spelling in the bytes' order, a NULL
(``--null-as-value``) a value of its own, ranked last — against a brute force over the rows in Python. The
statement returns its rows in no order; ``_Vectors`` sorts them: rows in any order give its arrays."""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd

from ldiv_db.algorithms.mondrian import _Vectors
from ldiv_db.sqlgen.render import Ident, TableRef, render


def test_vectors_count_every_spelling_and_null_under_its_code() -> None:
    con = duckdb.connect()
    con.execute(
        """CREATE TABLE "r it's" AS SELECT i AS rid, i % 7 AS vid, CAST(i % 7 % 3 AS DOUBLE) AS o1,
             CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN 'flu' WHEN i % 5 = 2 THEN 'FLU'
                  ELSE 'x' || (i % 4) END AS s1,
             CASE WHEN i % 6 = 0 THEN NULL ELSE 'b' || (i % 3) END AS s2
           FROM range(500) t(i)"""
    )
    q = render(
        "mondrian/vectors.sql", rows=TableRef("r it's"), ords=[Ident("o1")], sas=[Ident("s1"), Ident("s2")]
    )
    found = con.execute(q.sql).fetchall()

    rows = con.execute('SELECT vid, o1, s1, s2 FROM "r it\'s"').fetchall()
    expected = []
    for s in (1, 2):
        spellings = sorted({r[1 + s] for r in rows if r[1 + s] is not None}, key=lambda v: v.encode())
        if any(r[1 + s] is None for r in rows):
            spellings.append(None)  # NULLS LAST
        code = {v: i for i, v in enumerate(spellings)}
        counts: dict[tuple[int, int], int] = {}
        for vid, _, *sa in rows:
            key = (vid, code[sa[s - 1]])
            counts[key] = counts.get(key, 0) + 1
        ords = {vid: o1 for vid, o1, *_ in rows}
        expected += [(vid, ords[vid], 0, s, v, n) for (vid, v), n in counts.items()]
    expected.sort(key=lambda t: (t[0], t[3], t[4]))
    assert sorted(found, key=lambda t: (t[0], t[3], t[4])) == expected
    assert {t[4] for t in found if t[3] == 1} == set(range(7))  # 'FLU', 'flu', x0..x3, NULL


def test_vectors_in_any_row_order_give_the_same_arrays() -> None:
    # 3 vectors, 2 SAs: the arrays written out by hand in (vid, s, v) order
    frame = pd.DataFrame(
        [
            (0, 1.0, 5.0, 0, 1, 0, 4),
            (0, 1.0, 5.0, 0, 1, 2, 1),
            (0, 1.0, 5.0, 0, 2, 1, 5),
            (1, 1.0, 7.0, 0, 1, 1, 2),
            (1, 1.0, 7.0, 0, 2, 0, 2),
            (2, 3.0, 5.0, 0, 1, 0, 3),
            (2, 3.0, 5.0, 0, 1, 1, 6),
            (2, 3.0, 5.0, 0, 2, 0, 9),
        ],
        columns=["vid", "o1", "o2", "missing", "s", "v", "n"],
    )
    for seed in range(5):
        shuffled = frame.sample(frac=1, random_state=seed).reset_index(drop=True)
        data = _Vectors(shuffled, 2, 2, ["numeric", "numeric"])
        assert data.vid.tolist() == [0, 1, 2]
        assert data.ords.tolist() == [[1.0, 5.0], [1.0, 7.0], [3.0, 5.0]]
        assert [a.tolist() for a in data.sa_vec] == [[0, 0, 1, 2, 2], [0, 1, 2]]
        assert [a.tolist() for a in data.sa_val] == [[0, 2, 1, 0, 1], [1, 0, 0]]
        assert [a.tolist() for a in data.sa_n] == [[4, 1, 2, 3, 6], [5, 2, 9]]
        assert data.rows.tolist() == [5, 2, 9]
        assert [c.tolist() for c in data.codes] == [[0, 0, 1], [0, 1, 0]]
        assert np.array_equal(data.values[1], [5.0, 7.0])
