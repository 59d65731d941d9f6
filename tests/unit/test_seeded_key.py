"""The numpy seeded key and group-id rule (ldiv_db/util/seeded_key.py) against the SQL that defines them
(sql/_macros/seeded_key.sql through sql/order/group_ids.sql), on DuckDB: the same published id for every
group, over random group ids, deletions, bases and seeds at the ends of their ranges."""

from __future__ import annotations

import numpy as np
import pytest

from ldiv_db import Database
from ldiv_db.sqlgen.render import TableRef, default_renderer, render
from ldiv_db.util.seeded_key import published_ids, seeded_keys

SEEDS = [0, 1, 7, 2**21 - 1, 2**62 + 12345, 2**63 - 1]


def _sql_ids(db: Database, gids: np.ndarray, gone: np.ndarray, seed: int, base: int) -> dict[int, int]:
    con = db.con
    con.execute("CREATE OR REPLACE TABLE asg(rid BIGINT, gid BIGINT, deleted BOOLEAN)")
    # two rows per group: a group is gone when both are deleted, and one deleted row alone keeps it
    rows = [
        (2 * i + j, int(g), bool(d) or (j == 0 and i % 3 == 0))
        for i, (g, d) in enumerate(zip(gids, gone, strict=True))
        for j in (0, 1)
    ]
    con.executemany("INSERT INTO asg VALUES (?, ?, ?)", rows)
    db.run(render("order/group_ids.sql", {"seed": seed, "base": base}, target=TableRef("ids", "main"),
                  assignment=TableRef("asg", "main"), deleted=True))  # fmt: skip
    out = {int(g): int(p) for g, p in con.execute("SELECT gid, pub FROM ids").fetchall()}
    con.execute("DROP TABLE ids")
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_published_ids_equal_the_sql_rule(seed: int) -> None:
    rng = np.random.default_rng(seed % 1000)
    db = Database.open(":memory:")
    try:
        for _ in range(4):
            base = int(rng.choice([0, 5, 1000]))
            n = int(rng.integers(1, 300))
            gids = base + 1 + rng.choice(np.arange(5 * n), n, replace=False)
            gone = rng.random(n) < 0.2
            want = _sql_ids(db, gids, gone, seed, base)
            got = published_ids(gids, seed, gone=gone, base=base)
            assert {int(g): int(p) for g, p in zip(gids, got, strict=True)} == want
    finally:
        db.close()


def test_keys_at_the_ends_of_the_range_equal_the_sql() -> None:
    keys = np.array([0, 1, 2**31 - 1, 2**31, 2**61, 2**62 - 1], dtype=np.int64)
    sql = (
        default_renderer()
        .env.from_string(
            "WITH ldiv_keyed AS (SELECT ldiv_k FROM k), {% include '_macros/seeded_key.sql' %} "
            "SELECT ldiv_key FROM ldiv_keys ORDER BY ldiv_k"
        )
        .render()
    )
    db = Database.open(":memory:")
    try:
        db.con.execute("CREATE TABLE k AS SELECT unnest(?::BIGINT[]) AS ldiv_k", [keys.tolist()])
        for seed in SEEDS:
            got = [int(r[0]) for r in db.con.execute(sql.replace("$seed", str(seed))).fetchall()]
            assert got == [int(v) for v in seeded_keys(keys, seed)]
    finally:
        db.close()


def test_distinct_keys_and_refusals() -> None:
    keys = np.arange(100_000, dtype=np.int64) * 7919
    assert len(np.unique(seeded_keys(keys, 3))) == len(keys)
    with pytest.raises(ValueError):
        seeded_keys(np.array([-1]), 3)
    with pytest.raises(ValueError):
        published_ids(np.array([3, 3]), 1)
    with pytest.raises(ValueError):
        published_ids(np.array([2, 4]), 1, base=2)
