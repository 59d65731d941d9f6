"""``ldiv sql install`` on PostgreSQL (issue 55 item 2): the PL/pgSQL functions give the numbers of
``ldiv check --json`` on the same server (statistics and every model's violating classes), on a census
table with NULLs and on the hostile-names table; the install is idempotent; bad calls name the problem."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg
import pytest

from fixtures import census
from fixtures.hostile import HOSTILE_QI, HOSTILE_SA, HOSTILE_TABLE, create_sql
from ldiv_db.cli.main import main
from ldiv_db.commands import sql_functions
from tests.integration.sql_function_checks import assert_statistics, assert_violations, cli_json

QI = ["age", "sex", "race"]
SA = "occupation"
TYPES = {"t": "text", "table": "text", "qi": "text[]", "sa": "text", "model": "text", "m": "text"}
TYPES |= {"n": "numeric", "l": "integer", "c": "numeric"}


def pg_query(url: str) -> Any:
    def query(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        text = re.sub(r"\{(\w+)\}", lambda m: f"%s::{TYPES[m.group(1)]}", sql)
        with psycopg.connect(url, autocommit=True) as con:
            return con.execute(text, list(params)).fetchall()

    return query


@pytest.fixture
def loaded(pg_url: str, tmp_path: Path) -> str:
    frame = census.generate(n=2000, seed=3)[[*QI, SA]]
    frame.loc[frame.index % 97 == 0, "age"] = None
    frame.loc[frame.index % 89 == 0, SA] = None
    csv = tmp_path / "people.csv"
    frame.to_csv(csv, index=False)
    assert main(["load", pg_url, str(csv), "--table", "people"]) == 0
    with psycopg.connect(pg_url, autocommit=True) as con:
        for stmt in create_sql():
            con.execute(stmt.replace("CREATE OR REPLACE TABLE", "CREATE TABLE"))
    assert main(["sql", "install", pg_url]) == 0
    return pg_url


def test_statistics_and_violations_equal_ldiv_check(loaded: str, capsys: pytest.CaptureFixture[str]) -> None:
    query = pg_query(loaded)
    # ldiv load writes into schema main; regclass reads a name by the session's search_path
    assert_statistics(query, capsys, loaded, "main.people", QI, SA)
    assert assert_violations(query, capsys, loaded, "main.people", QI, SA, as_json=True) >= 5


def test_hostile_names(loaded: str, capsys: pytest.CaptureFixture[str]) -> None:
    query = pg_query(loaded)
    table = '"' + HOSTILE_TABLE + '"'  # regclass reads a name as SQL does: a keyword is quoted
    assert_statistics(query, capsys, loaded, table, HOSTILE_QI, HOSTILE_SA)
    assert assert_violations(query, capsys, loaded, table, HOSTILE_QI, HOSTILE_SA, as_json=True) >= 3


def test_bad_calls_say_what_is_wrong(loaded: str) -> None:
    query = pg_query(loaded)
    with pytest.raises(
        psycopg.Error, match=r"a quasi-identifier in \{age,postcode\} is not a column of main.people"
    ):
        query("SELECT * FROM ldiv.l_diversity({t}, {qi}, {sa})", ["main.people", ["age", "postcode"], SA])
    with pytest.raises(psycopg.Error, match="unknown model diverse"):
        query(
            "SELECT * FROM ldiv.violations({t}, {qi}, {sa}, {m}, {n})", ["main.people", QI, SA, "diverse", 2]
        )
    with pytest.raises(psycopg.Error, match='relation "nope" does not exist'):
        query("SELECT * FROM ldiv.l_diversity({t}, {qi}, {sa})", ["nope", QI, SA])


def test_install_is_idempotent(loaded: str, capsys: pytest.CaptureFixture[str]) -> None:
    again = cli_json(capsys, "sql", "install", loaded)
    assert (again["revision"], again["replaced_revision"]) == (sql_functions.REVISION, sql_functions.REVISION)
    assert "***" not in again["database"] and "@" in again["database"]  # the URL, never its password
    assert pg_query(loaded)("SELECT ldiv.sql_functions_version()", []) == [(sql_functions.REVISION,)]
