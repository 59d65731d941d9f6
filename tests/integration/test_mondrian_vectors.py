"""Mondrian's compressed input (``sql/mondrian/vectors.sql``): per QI vector its ordinals and per SA the
count of each value under its code — the dense rank of the value's spelling in the bytes' order, a NULL
(``--null-as-value``) a value of its own, ranked last — against a brute force over the rows in Python."""

from __future__ import annotations

import duckdb

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
    assert found == expected
    assert {t[4] for t in found if t[3] == 1} == set(range(7))  # 'FLU', 'flu', x0..x3, NULL
