"""TP and TP+ break their ties by the seeded key themselves (``Algorithm.keyed_ties``): no seeded copy.

Their releases must be the ones the seeded copy gives (ldiv_db/pipeline/opaque.py: the copy's row ids are the
rows' ranks in the key's order): the same published rows in the same stored order with the same group ids,
and the same private link. The copy's path is the reference, run by turning the attribute off.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import ldiv_db
from ldiv_db.algorithms.tp import TP, TPPlus
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Ident, TableRef, render
from tests.integration.frames import make_table


def _frame(rows: int, seed: int) -> pd.DataFrame:
    """Few QI values (many ties among rows) and a skewed SA, so TP leaves a residue for Hilbert."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "a": rng.integers(20, 26, rows),
            "b": rng.choice(["x", "y", "z", "w"], rows),
            "c": rng.choice(["p", "q", "r"], rows),
            "s": rng.choice(list("ssssttuvwxyz"), rows),
        }
    )


def _release(
    db: Database, algorithm: str, seed: int, table: str = "t"
) -> tuple[list[Any], list[Any], dict[str, Any]]:
    r = ldiv_db.anonymize(
        db, table, ["a", "b", "c"], "s", algorithm=algorithm, output="o", replace=True, l=3, seed=seed
    )
    assert r.verified
    rows = db.con.execute('SELECT * FROM "o" ORDER BY rowid').fetchall()
    link = db.con.execute(
        "SELECT source_rowid, group_id, suppressed FROM ldiv.release_row WHERE release_id = ? ORDER BY 1",
        [int(r.release_id)],
    ).fetchall()
    details = {k: v for k, v in r.details.items() if "seconds" not in k}
    return rows, link, details


@pytest.mark.parametrize("cls", [TP, TPPlus])
@pytest.mark.parametrize(("rows", "seed", "gaps"), [(300, 1, False), (500, 7, True), (64, 3, False)])
def test_keyed_ties_give_the_seeded_copys_release(
    db: Database, monkeypatch: pytest.MonkeyPatch, cls: type[TP], rows: int, seed: int, gaps: bool
) -> None:
    make_table(db, "t", _frame(rows, seed))
    if gaps:  # row ids with gaps: the ranks are not the row ids
        db.con.execute("DELETE FROM t WHERE rowid % 7 = 3")
    keyed = _release(db, cls.name, seed)
    monkeypatch.setattr(cls, "keyed_ties", False)  # the seeded copy, mapped back
    copied = _release(db, cls.name, seed)
    assert keyed[0] == copied[0]  # rows, their stored order, group ids
    assert keyed[1] == copied[1]  # the private link
    assert keyed[2] == copied[2]
    if cls is TPPlus and rows >= 300:
        assert keyed[2]["residue_split"]  # the Hilbert ties were exercised


def test_suppression_labels_match_the_rows(db: Database) -> None:
    """release/write_suppress.sql: a group's label is its rows' common value, else '*' (NULL is a value of
    its own, and never a label); derived here in pandas from the rows."""
    rng = np.random.default_rng(5)
    n = 400
    frame = pd.DataFrame(
        {
            "num": pd.array(rng.choice([1, 2, None], n, p=[0.6, 0.3, 0.1]), dtype="Int64"),
            "txt": rng.choice(np.array(["u", "v", None], dtype=object), n, p=[0.7, 0.2, 0.1]),
            "s": rng.choice(list("abc"), n),
        }
    )
    gid = np.sort(rng.integers(1, 120, n))
    make_table(db, "src", frame)
    make_table(
        db, "asg", pd.DataFrame({"rid": np.arange(n), "gid": gid, "deleted": False, "sa_suppressed": False})
    )
    db.run(
        render(
            "release/write_suppress.sql",
            output=TableRef("out"),
            assignment=TableRef("asg"),
            source=TableRef("src"),
            qi=[Ident("num"), Ident("txt")],
            sa=[Ident("s")],
            keep=[],
            group_column=Ident("g"),
            as_text=[False, True],
        )
    )
    got = db.con.execute('SELECT g, num, txt, s FROM "out"').fetchall()

    def label(values: pd.Series) -> str:
        if values.isna().any() or values.nunique() != 1:
            return "*"
        return str(values.iloc[0])

    frame["g"] = gid
    labels = {g: (label(part["num"]), label(part["txt"])) for g, part in frame.groupby("g")}
    want = sorted((int(g), *labels[g], s) for g, s in zip(frame["g"], frame["s"], strict=True))
    assert sorted(got) == want
    assert [r[0] for r in got] == sorted(r[0] for r in got)  # written group after group
    assert {lab for g in labels for lab in labels[g]} >= {"*", "1", "u"}  # both kinds of label occur


SPELLINGS = ["apple", "APPLE", "Banana", "banana", "cherry", "Cherry", "_x", "Zulu", "zulu", "a-b", "A-B"]


def _nocase(db: Database, column: str, rows: int, seed: int) -> None:
    """Table ``ci``: QIs a, b, c and SA s, ``column`` of them COLLATE NOCASE holding case variants of its
    values: under the column's collation 'apple' and 'APPLE' are one value, in bytes' order apart
    ('APPLE' < 'Banana' < 'apple'), so which spelling stands for the value moves Hilbert's ranks."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "a": rng.integers(20, 40, rows),
            "b": rng.choice(SPELLINGS, rows),
            "c": rng.choice(SPELLINGS[::-1], rows),
            "s": rng.choice(["flu", "FLU", "hiv", "HIV", "cancer", "Cancer", "cold"], rows),
        }
    )
    make_table(db, "ci_src", frame)
    cols = ", ".join(f"{c} VARCHAR" + (" COLLATE NOCASE" if c == column else "") for c in "bcs")
    db.con.execute(f"CREATE OR REPLACE TABLE ci (a BIGINT, {cols})")
    db.con.execute("INSERT INTO ci SELECT a, b, c, s FROM ci_src")


@pytest.mark.parametrize("cls", [TP, TPPlus])
@pytest.mark.parametrize(("column", "seed"), [("b", 7), ("b", 1), ("s", 7)])
def test_a_nocase_column_gives_the_seeded_copys_release(
    db: Database, monkeypatch: pytest.MonkeyPatch, cls: type[TP], column: str, seed: int
) -> None:
    """A column whose collation folds spellings (decision 0033, Round 7): the release is the seeded copy's,
    as before TP broke its ties itself; each published label is a spelling its group's own rows hold."""
    _nocase(db, column, 900, seed)

    def release() -> tuple[list[Any], list[Any]]:
        rows, link, _ = _release(db, cls.name, seed, table="ci")
        return rows, link

    keyed = release()
    monkeypatch.setattr(cls, "keyed_ties", False)
    copied = release()
    assert keyed == copied
    # the labels: a group's label of b is '*' or the spelling of one of its rows
    spelled = db.con.execute(
        'SELECT o.b, list(DISTINCT CAST(src.b AS VARCHAR) COLLATE "C") FROM ldiv.release_row AS rr '
        "JOIN ci AS src ON src.rowid = rr.source_rowid "
        'JOIN (SELECT DISTINCT b, group_id FROM "o") AS o ON o.group_id = rr.group_id '
        "WHERE rr.release_id = (SELECT max(release_id) FROM ldiv.release_row) GROUP BY o.group_id, o.b"
    ).fetchall()
    assert spelled and all(label == "*" or label in held for label, held in spelled)


@pytest.mark.parametrize("cls", [TP, TPPlus])
def test_spellings_are_counted_once_and_a_folding_kept_column_is_heard(
    db: Database, monkeypatch: pytest.MonkeyPatch, cls: type[TP]
) -> None:
    """The keyed decision counts the spellings of the QIs, the SA and the kept columns in one statement
    and hands the answer to the suppression write (decision 0033, Round 8: TP+): a kept column that folds
    spellings (none of the QIs or the SA does) keeps the keyed path and gets the write's windows, and the
    release is the one the seeded copy's path gives, where the write counts them itself."""
    _nocase(db, "b", 600, 3)
    db.con.execute("CREATE OR REPLACE TABLE kc AS SELECT a, c AS b, c, s, b AS k FROM ci")  # k: NOCASE
    db.con.execute("ALTER TABLE kc ALTER b TYPE VARCHAR")  # b of ci_src's text, bytes' collation

    def release() -> tuple[list[Any], list[Any], list[str]]:
        r = ldiv_db.anonymize(
            db, "kc", ["a", "b", "c"], "s", algorithm=cls.name, output="o", replace=True, l=3, seed=3,
            keep_columns=["k"],
        )  # fmt: skip
        assert r.verified
        rows = db.con.execute('SELECT * FROM "o" ORDER BY rowid').fetchall()
        link = db.con.execute(
            "SELECT source_rowid, group_id FROM ldiv.release_row WHERE release_id = ? ORDER BY 1",
            [int(r.release_id)],
        ).fetchall()
        steps = db.con.execute("SELECT template FROM ldiv.run_step WHERE run_id = ?", [int(r.run_id)])
        return rows, link, [str(t) for (t,) in steps.fetchall()]

    keyed = release()
    assert keyed[2].count("catalog/sa_spellings.sql") == 1
    assert "order/seeded_source.sql" not in keyed[2]  # the kept column does not decide the path
    monkeypatch.setattr(cls, "keyed_ties", False)
    copied = release()
    assert copied[2].count("catalog/sa_spellings.sql") == 1  # the write's own count
    assert keyed[:2] == copied[:2]
    spellings = {r[-2] for r in keyed[0]}  # k, published unchanged in every spelling
    assert {"apple", "APPLE"} <= spellings
