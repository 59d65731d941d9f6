"""What makes ``check`` fast on PostgreSQL keeps its result: the group statistics straight from the source
(no histogram table), values hashed by their type through the session's ``pg_temp.ldiv_hash``, and the
parts of a split check without parallel workers of their own."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

import ldiv_db
from ldiv_db.core.evaluator import SqlEvaluator
from ldiv_db.db import Database
from ldiv_db.db.postgres import engine as postgres
from ldiv_db.errors import BadInput
from ldiv_db.sqlgen.render import Query
from tests.engines import pg_server as pg_server_mod
from tests.engines.test_pg_check_split import QI, _table

MODELS = [
    {},
    {"model": "recursive", "l": 2, "c": 3},
    {"model": "recursive", "l": 3, "c": "3/2"},
    {"model": "entropy", "l": 2},
    {
        "model": "distinct-alpha",
        "l": 2,
        "alpha": 0,
        "categories": {"flu": 1, "HIV": 1, "cancer": 2, "it's": 2},
    },
]


def _check(url: str, **model: Any) -> dict[str, Any]:
    out = ldiv_db.check(url, 'public."pa tients"', QI, ["disease"], **model).to_dict()
    out.pop("seconds")
    out.pop("queries")
    return out


@pytest.mark.parametrize("model", MODELS, ids=["stats", "rec2", "rec3", "ent", "alpha"])
@pytest.mark.parametrize("sessions", ["1", "2"])
def test_statistics_from_the_source_give_the_histograms_check(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, model: dict[str, Any], sessions: str
) -> None:
    _table(pg_url)
    monkeypatch.setattr(postgres, "READ_SESSIONS_MIN_ROWS", 1000)
    monkeypatch.setenv("LDIV_PG_READ_SESSIONS", sessions)
    built: list[bool] = []
    build = SqlEvaluator.build

    def spy(self: SqlEvaluator) -> SqlEvaluator:
        if not self._built:
            built.append(self._from_source)
        return build(self)

    monkeypatch.setattr(SqlEvaluator, "build", spy)
    lean = _check(pg_url, **model)
    assert built and all(built), "a check on PostgreSQL builds its statistics from the source"
    monkeypatch.setattr(postgres.PostgresDatabase, "stats_from_source", False)
    built.clear()
    assert _check(pg_url, **model) == lean
    assert built and not any(built)


def test_parts_run_without_parallel_workers_and_the_session_gets_them_back(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _table(pg_url)
    monkeypatch.setattr(postgres, "READ_SESSIONS_MIN_ROWS", 1000)
    monkeypatch.setenv("LDIV_PG_READ_SESSIONS", "2")
    seen: list[str] = []
    build = SqlEvaluator.build

    def spy(self: SqlEvaluator) -> SqlEvaluator:
        seen.append(str(self.db.raw_rows("SHOW max_parallel_workers_per_gather")[0][0]))
        return build(self)

    monkeypatch.setattr(SqlEvaluator, "build", spy)
    with Database.open(pg_url, mode="read") as db:
        before = db.raw_rows("SHOW max_parallel_workers_per_gather")[0][0]
        ldiv_db.check(db, 'public."pa tients"', QI, ["disease"], model="recursive", l=2, c=3)
        after = db.raw_rows("SHOW max_parallel_workers_per_gather")[0][0]
    assert seen and set(seen) == {"0"}  # every part, on both sessions
    assert after == before != "0"  # the worst groups' keys, and what follows, have the workers again


def test_values_hash_by_their_type(pg_url: str) -> None:
    """Integers of any width hash alike, text as before, other types by their text; NULL keeps its own
    mark per position, and the second hash stays independent."""
    with psycopg.connect(pg_url, autocommit=True) as con:
        con.execute(
            "CREATE TABLE public.typed AS SELECT i, i::smallint AS s, i::int AS n, i::bigint AS b, "
            "i::text AS t, i::numeric AS d, date '2020-01-01' + i AS day FROM generate_series(1, 50) AS i"
        )
        con.execute("INSERT INTO public.typed VALUES (51, NULL, NULL, NULL, NULL, NULL, NULL)")
    sql = (
        "SELECT hash(s, t) >> 1 AS hs, hash(n, t) >> 1 AS hn, hash(b, t) >> 1 AS hb, hash(t, t) >> 1 AS ht, "
        "hash(d, day) >> 1 AS hd, hash(b, t, 'ldiv') >> 1 AS h2 FROM public.typed ORDER BY i"
    )
    with Database.open(pg_url, mode="read") as db:
        rows = db.rows(Query("typed", sql))
    assert all(hs == hn == hb for hs, hn, hb, *_ in rows)  # one integer, one id, whatever its width
    assert all(hb != ht for _, _, hb, ht, *_ in rows[:-1])  # 7 and '7' are different values, as on DuckDB
    for col in range(6):
        assert len({r[col] for r in rows}) == len(rows)  # the NULL row (51) apart from every value
    assert all(0 <= v < 2**62 for r in rows for v in r)
    assert all(h2 != hb for _, _, hb, _, _, h2 in rows)


def test_without_temp_a_hashing_statement_names_the_privilege(pg_server) -> None:  # type: ignore[no-untyped-def]
    name = pg_server.new_database()
    with pg_server.admin(name) as admin:
        admin.execute("CREATE TABLE public.t (a int, s text)")
        admin.execute("INSERT INTO public.t SELECT i % 7, 'v' || (i % 3) FROM generate_series(1, 100) AS i")
        admin.execute("CREATE ROLE ldiv_notemp LOGIN PASSWORD 'notemppw'")
        admin.execute("GRANT SELECT ON public.t TO ldiv_notemp")
        admin.execute(f'REVOKE TEMP ON DATABASE "{name}" FROM PUBLIC')
    url = pg_server.url(name, user="ldiv_notemp").replace(pg_server.password, "notemppw")
    with pytest.raises(BadInput) as info:  # a read's stand-ins for a missing ldiv schema are temporary
        ldiv_db.check(url, "public.t", ["a"], "s")
    assert "temporary tables" in str(info.value) and "notemppw" not in str(info.value)
    assert "GRANT TEMP" in (info.value.hint or "")
    Database.open(pg_server.url(name, user=pg_server_mod.SUPERUSER)).close()  # the ldiv schema, made
    with pg_server.admin(name) as admin:  # and readable: no stand-ins needed
        admin.execute("GRANT USAGE ON SCHEMA ldiv TO ldiv_notemp")
        admin.execute("GRANT SELECT ON ALL TABLES IN SCHEMA ldiv TO ldiv_notemp")
    with pytest.raises(BadInput) as info:  # now the first statement that hashes
        ldiv_db.check(url, "public.t", ["a"], "s")
    assert "session-temporary functions, which the server refused: permission denied" in str(info.value)
    assert "notemppw" not in str(info.value)
    assert "GRANT TEMP" in (info.value.hint or "")


def test_a_read_whole_table_is_not_analyzed(pg_url: str) -> None:
    """A work table of 100,000 rows or more is analyzed when created, unless its template says the
    statements after it read it whole (the check's statistics from the source)."""
    make = "CREATE TEMPORARY TABLE {} AS SELECT i AS a FROM generate_series(1, 120000) AS i"
    with Database.open(pg_url, mode="read") as db:
        db.run(Query("t", make.format("pg_temp.plain")))
        db.run(Query("t", make.format("pg_temp.whole"), hints=frozenset({"read-whole"})))
        analyzed = dict(
            db.raw_rows(
                "SELECT c.relname, c.reltuples FROM pg_catalog.pg_class AS c "
                "WHERE c.relname IN ('plain', 'whole') AND c.relpersistence = 't'"
            )
        )
    assert analyzed["plain"] == 120000 and analyzed["whole"] < 0  # -1: never analyzed


def test_sorted_lists_and_their_tails_as_on_duckdb(pg_url: str) -> None:
    """``list_reverse_sort`` / ``list_sort`` and the sum of a slice of a sorted list (the recursive model's
    tail over the statistics' unordered counts) give DuckDB's values on PostgreSQL."""
    sql = (
        "SELECT i, list_reverse_sort(counts) AS d, list_sort(counts) AS a, "
        "coalesce(list_sum(list_slice(list_reverse_sort(counts), 2, len(counts))), 0) AS tail2, "
        "coalesce(list_sum(list_slice(list_reverse_sort(counts), 4, len(counts))), 0) AS tail4 "
        "FROM (VALUES (1, [3, 1, 2]), (2, [5]), (3, [2, 2, 7, 1]), (4, [4, 4]), (5, NULL)) AS t(i, counts) "
        "ORDER BY i"
    )
    with Database.open(":memory:") as duck:
        want = duck.rows(Query("lists", sql))
    with Database.open(pg_url, mode="read") as db:
        got = db.rows(Query("lists", sql))
    assert [tuple(r) for r in want] == [
        (1, [3, 2, 1], [1, 2, 3], 3, 0),
        (2, [5], [5], 0, 0),
        (3, [7, 2, 2, 1], [1, 2, 2, 7], 5, 1),
        (4, [4, 4], [4, 4], 4, 0),
        (5, None, None, 0, 0),  # no list (the statistics keep none where every count is 1)
    ]
    assert [(i, d, a, int(t2), int(t4)) for i, d, a, t2, t4 in got] == [
        (i, d if d is None else list(d), a if a is None else list(a), int(t2), int(t4))
        for i, d, a, t2, t4 in want
    ]


def test_a_read_only_session_is_told_why(pg_server) -> None:  # type: ignore[no-untyped-def]
    """A session whose transactions are read-only takes no temporary objects: the first statement that
    hashes says so, and how to run instead (not an internal error)."""
    name = pg_server.new_database()
    url = pg_server.url(name)
    _table(url)
    Database.open(url).close()  # the ldiv schema, so that the read needs no temporary stand-ins
    with pg_server.admin(name) as admin:
        admin.execute(
            f'ALTER ROLE {pg_server_mod.ROLE} IN DATABASE "{name}" SET default_transaction_read_only = on'
        )
    with pytest.raises(BadInput) as info:
        ldiv_db.check(url, 'public."pa tients"', QI, ["disease"])
    assert "read-only transaction" in str(info.value)
    assert "default_transaction_read_only" in (info.value.hint or "")
