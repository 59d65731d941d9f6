"""Template cases: sql/ownership/ and the catalog lookup it shares (what ldiv_db may drop or replace)."""

from __future__ import annotations

from ldiv_db.sqlgen.render import Ident

from .harness import Case, HostileEnv

VICTIM = "drop me it's"
WHERE = {"schema": "main", "name": "select"}


def _victim(env: HostileEnv) -> None:
    env.con.execute(f"CREATE OR REPLACE TABLE {env.named(VICTIM).sql()} AS SELECT 1 AS x")


STAGED = "staged it's__ldiv_job_load"
RENAMED = "renamed it's"


def _staged(env: HostileEnv) -> None:
    env.con.execute(f"CREATE OR REPLACE TABLE {env.named(STAGED).sql()} AS SELECT 1 AS x")
    env.con.execute(f"DROP TABLE IF EXISTS {env.named(RENAMED).sql()}")


RECORD = {
    "schema": "main",
    "name": "out it's",
    "release_schema": "main",
    "release_name": "out it's",
    "release_id": 1,
    "rows": 12,
    "digest": "123",
}

CASES = {
    "catalog/table_info.sql": Case(lambda env: {}, WHERE),
    "ownership/schema_info.sql": Case(lambda env: {}, {"schema": "main"}),
    "ownership/owner.sql": Case(lambda env: {}, WHERE),
    "ownership/sources.sql": Case(lambda env: {}, {"name": "main.select"}),
    "ownership/digest.sql": Case(lambda env: {"target": env.source}),
    "ownership/release_tables.sql": Case(lambda env: {}, {"release_schema": "main", "release_name": "x"}),
    "ownership/recorded_tables.sql": Case(lambda env: {}),
    "ownership/forget.sql": Case(lambda env: {}, WHERE),
    "ownership/record.sql": Case(lambda env: {}, RECORD),
    "ownership/drop_table.sql": Case(lambda env: {"target": env.named(VICTIM)}, prepare=_victim),
    "ownership/rename_table.sql": Case(
        lambda env: {"source": env.named(STAGED), "new_name": Ident(env.catalog_name(RENAMED))},
        prepare=_staged,
    ),
}
