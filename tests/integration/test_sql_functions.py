"""``ldiv sql install`` on DuckDB (issue 55 item 2): the table macros give the numbers of ``ldiv check
--json`` (statistics and every model's violating classes) on a census table with NULLs and on the
hostile-names table; the install is idempotent and never replaces a newer revision; bad calls fail with
a message naming the problem."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import pytest

from fixtures import census
from fixtures.hostile import HOSTILE_QI, HOSTILE_SA, HOSTILE_TABLE, create_sql
from ldiv_db.cli.main import main
from ldiv_db.commands import sql_functions
from ldiv_db.sqlgen.render import default_renderer

from .sql_function_checks import assert_statistics, assert_violations, cli_json

QI = ["age", "sex", "race"]
SA = "occupation"


@pytest.fixture(scope="module")
def dbfile(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database with a census table (NULLs in a QI and in the SA) and the hostile table."""
    path = str(tmp_path_factory.mktemp("sqlfn") / "f.duckdb")
    frame = census.generate(n=2000, seed=3)[[*QI, SA]]
    frame.loc[frame.index % 97 == 0, "age"] = None
    frame.loc[frame.index % 89 == 0, SA] = None
    con = duckdb.connect(path)
    con.register("frame", frame)
    con.execute("CREATE TABLE people AS SELECT * FROM frame")
    for stmt in create_sql():
        con.execute(stmt)
    con.close()
    assert main(["sql", "install", path]) == 0
    return path


def duck_query(path: str) -> Any:
    def query(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        con = duckdb.connect(path, read_only=True)
        try:
            return con.execute(re.sub(r"\{\w+\}", "?", sql), list(params)).fetchall()
        finally:
            con.close()

    return query


def test_statistics_and_violations_equal_ldiv_check(dbfile: str, capsys: pytest.CaptureFixture[str]) -> None:
    query = duck_query(dbfile)
    assert_statistics(query, capsys, dbfile, "people", QI, SA)
    assert assert_violations(query, capsys, dbfile, "people", QI, SA, as_json=False) >= 5
    # the user's spelling of names: case-insensitive, as ldiv check reads them
    assert query(
        "SELECT classes FROM ldiv.l_diversity({t}, {qi}, {sa})", ["PEOPLE", ["Age", "SEX"], "Occupation"]
    )


def test_hostile_names(dbfile: str, capsys: pytest.CaptureFixture[str]) -> None:
    query = duck_query(dbfile)
    table = '"' + HOSTILE_TABLE + '"'  # query_table reads a name as SQL does: a keyword is quoted
    assert_statistics(query, capsys, dbfile, table, HOSTILE_QI, HOSTILE_SA)
    assert assert_violations(query, capsys, dbfile, table, HOSTILE_QI, HOSTILE_SA, as_json=False) >= 3


def test_bad_calls_say_what_is_wrong(dbfile: str) -> None:
    query = duck_query(dbfile)
    for qi, sa, words in (
        (["age", "postcode"], SA, "a quasi-identifier in [age, postcode] is not a column of people"),
        (["age", "sex"], "sex", "the SA sex is also given as a quasi-identifier"),
        (["age", "AGE"], SA, "a quasi-identifier is named twice"),
    ):
        with pytest.raises(duckdb.Error, match=re.escape(words)):
            query("SELECT * FROM ldiv.l_diversity({t}, {qi}, {sa})", ["people", qi, sa])
    with pytest.raises(duckdb.Error, match="unknown model diverse"):
        query("SELECT * FROM ldiv.violations({t}, {qi}, {sa}, {m}, {n})", ["people", QI, SA, "diverse", 2])


def test_install_is_idempotent_and_versioned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "v.duckdb")
    first = cli_json(capsys, "sql", "install", db)
    again = cli_json(capsys, "sql", "install", db)
    assert (first["revision"], first["replaced_revision"]) == (sql_functions.REVISION, None)
    assert (again["revision"], again["replaced_revision"]) == (sql_functions.REVISION, sql_functions.REVISION)
    con = duckdb.connect(db)
    assert con.execute("SELECT ldiv.sql_functions_version()").fetchone() == (sql_functions.REVISION,)
    con.execute("CREATE OR REPLACE MACRO ldiv.sql_functions_version() AS 99")  # a newer ldiv_db's
    con.close()
    capsys.readouterr()
    assert main(["sql", "install", db]) == 2
    assert "revision 99, newer than this ldiv_db's" in capsys.readouterr().err
    con = duckdb.connect(db, read_only=True)
    assert con.execute("SELECT ldiv.sql_functions_version()").fetchone() == (99,)  # left as it was
    con.close()


def test_the_revision_is_one_number() -> None:
    """REVISION is the number every engine's version function returns."""
    root = default_renderer().root
    for name in ("version.sql", "version.postgres.sql"):
        text = (root / "functions" / name).read_text(encoding="utf-8")
        assert re.search(rf"\b(AS|SELECT) {sql_functions.REVISION}\b", text.split("\n", 4)[-1]), name


ADULT = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "adult" / "adult.csv"


@pytest.mark.slow
def test_adult(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The functions on Adult (30,162 rows, seven QIs) give ldiv check's numbers."""
    if not ADULT.exists():
        pytest.skip(f"{ADULT} not found")
    db = str(tmp_path / "adult.duckdb")
    assert main(["load", db, str(ADULT), "--table", "adult", "--sep", ";"]) == 0
    assert main(["sql", "install", db]) == 0
    qi = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass"]
    query = duck_query(db)
    assert_statistics(query, capsys, db, "adult", qi, "occupation")
    assert assert_violations(query, capsys, db, "adult", qi, "occupation", as_json=False) >= 5
