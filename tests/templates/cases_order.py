"""Template cases: sql/order/ (the seeded copy an algorithm reads, and the published group ids)."""

from __future__ import annotations

from ldiv_db.sqlgen.render import Ident, TableRef

from .harness import Case, HostileEnv

SEED = 12345


def _seeded(env: HostileEnv) -> TableRef:
    target = env.work("seeded it's")
    env.run(
        "order/seeded_source.sql",
        {"seed": SEED},
        target=target,
        source=env.source,
        columns=[c.ident for c in env.table.columns],
    )
    return target


def _assignment(env: HostileEnv) -> TableRef:
    """An assignment over the seeded copy's row ids: rows 0..2 deleted (group 1), groups of about 3 rows."""
    t = env.work("seeded assignment")
    env.con.execute(
        f"CREATE OR REPLACE TEMP TABLE {t.sql()} AS SELECT CAST(rowid AS BIGINT) AS rid, "
        f"CAST(rowid // 3 + 1 AS BIGINT) AS gid, rowid < 3 AS deleted, false AS sa_suppressed "
        f'FROM main."select"'
    )
    return t


def _ids(env: HostileEnv) -> TableRef:
    target = env.work("published ids")
    env.run(
        "order/group_ids.sql",
        {"seed": SEED, "base": 0},
        target=target,
        assignment=_assignment(env),
        deleted=True,
    )
    return target


ASSIGNMENT_COLUMNS = [Ident(c) for c in ("rid", "gid", "deleted", "sa_suppressed")]

CASES = {
    "order/seeded_source.sql": Case(
        lambda env: {
            "target": env.work("seeded it's"),
            "source": env.source,
            "columns": [c.ident for c in env.table.columns],
        },
        {"seed": SEED},
    ),
    "order/source_rids.sql": Case(
        lambda env: {
            "target": env.work("by source"),
            "rows": _assignment(env),
            "seeded": _seeded(env),
            "columns": [Ident("gid"), Ident("deleted"), Ident("sa_suppressed")],
        }
    ),
    "order/group_ids.sql": Case(
        lambda env: {
            "target": env.work("published ids"),
            "assignment": _assignment(env),
            "deleted": True,
        },
        {"seed": SEED, "base": 1},
    ),
    "order/renumber.sql": Case(
        lambda env: {
            "target": env.work("renumbered"),
            "rows": _assignment(env),
            "ids": _ids(env),
            "columns": ASSIGNMENT_COLUMNS,
            "is_gid": [False, True, False, False],
        }
    ),
}
