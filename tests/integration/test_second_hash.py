"""The second hash of the group ids (gid2, TP's g2) tells apart two key tuples whose first hash collides
in all 64 bits, on DuckDB: such a pair is built here from DuckDB's own hash (an integer's hash is an
invertible mix, and a tuple's is a fixed combination of its keys' hashes), and a check of a table holding
both must see two classes, not one (docs/development.md: the histogram is rebuilt with exact ids)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pandas as pd

import ldiv_db
from ldiv_db.db import Database
from ldiv_db.sqlgen.render import Ident, TableRef, render
from tests.integration.frames import make_table
from tests.integration.test_check_split import _table
from tests.integration.test_stats_from_source import _check

_M = 2**64
_MIX = 0xD6E8FEB86659FD93  # DuckDB's multiplier (murmurhash64 and CombineHashScalar)


def _mix(x: int) -> int:
    """DuckDB's hash of a BIGINT: murmurhash64 of its bits."""
    for _ in range(2):
        x ^= x >> 32
        x = x * _MIX % _M
    return x ^ (x >> 32)


def _unmix(y: int) -> int:
    inverse = pow(_MIX, -1, _M)
    y ^= y >> 32
    for _ in range(2):
        y = y * inverse % _M
        y ^= y >> 32
    return y


def _combine(a: int, b: int) -> int:
    """How DuckDB's hash(x, y) combines hash(x) and hash(y)."""
    a ^= a >> 32
    return (a * _MIX % _M) ^ b


def _colliding_pairs() -> tuple[tuple[int, int], tuple[int, int]]:
    """Two BIGINT pairs with the same 64-bit DuckDB hash: the second's b solves the combination."""
    a1, b1, a2 = 3, 4, 7
    b2 = _unmix(_combine(_mix(a1), _mix(b1)) ^ _combine(_mix(a2), 0))
    b2 = b2 - _M if b2 >= 2**63 else b2
    con = duckdb.connect()
    same = con.execute(f"SELECT hash({a1}::BIGINT, {b1}::BIGINT) = hash({a2}::BIGINT, {b2}::BIGINT)")
    assert same.fetchone() == (True,), "DuckDB's hash changed: the pair no longer collides"
    return (a1, b1), (a2, b2)


def _rows() -> list[dict[str, Any]]:
    """Two classes of one SA value each (each violates distinct 2-diversity); merged, they would pass."""
    (a1, b1), (a2, b2) = _colliding_pairs()
    rows = [{"q 1": a1, "q2": b1, "s1": "flu", "s2": "y", "g": 0}] * 3
    return rows + [{"q 1": a2, "q2": b2, "s1": "HIV", "s2": "y", "g": 0}] * 3


def test_the_pair_collides_in_the_first_hash_and_not_in_the_second() -> None:
    """The templates' gid is the same for both pairs, their gid2 differs (the old gid2, hash(keys, 'ldiv'),
    is a fixed function of hash(keys) on DuckDB, and did not)."""
    (a1, b1), (a2, b2) = _colliding_pairs()
    with Database.open(":memory:") as db:
        db.con.execute(
            f"CREATE TABLE t AS SELECT * FROM (VALUES ({a1}, {b1}, 's'), ({a2}, {b2}, 't')) v(a, b, s)"
        )
        db.con.execute("CREATE TABLE sa_ids AS SELECT 1 AS sid, 's' AS v UNION ALL SELECT 2, 't'")
        q = render("tp/rows.sql", {"seed": 1}, target=TableRef("rows"), sa_ids=TableRef("sa_ids"),
                   source=TableRef("t"), qi=[Ident("a"), Ident("b")], sa=Ident("s"),
                   exact_ids=False, keyed=False)  # fmt: skip
        db.run(q)
        ((gids, g2s),) = db.con.execute("SELECT count(DISTINCT g), count(DISTINCT g2) FROM rows").fetchall()
    assert (gids, g2s) == (1, 2)


def test_a_check_sees_both_classes_behind_one_hash(tmp_path: Path) -> None:
    path = tmp_path / "collide.duckdb"
    _table(path, _rows())
    for from_source in (True, False):  # source_stats.sql and the histogram
        out = _check(path, ("distinct", {"l": 2}), None, from_source=from_source)
        assert out["satisfied"] is False, out
        assert out["violating_classes"] == 2, out


def test_tp_rebuilds_its_row_map_with_exact_ids(tmp_path: Path) -> None:
    """TP's g2 flags the collision (tp/cells.sql), so TP numbers the two QI-groups apart."""
    (a1, b1), (a2, b2) = _colliding_pairs()
    frame = pd.DataFrame(
        {"a": [a1] * 2 + [a2] * 2 + [1] * 4, "b": [b1] * 2 + [b2] * 2 + [2] * 4, "s": list("xyzwxyzw")}
    )
    with Database.open(str(tmp_path / "tp.duckdb")) as db:
        make_table(db, "t", frame)
        r = ldiv_db.anonymize(db, "t", ["a", "b"], "s", algorithm="tp", output="o", l=2)
        assert r.details["exact_group_ids"] is True and r.verified
