"""A PostgreSQL database whose default collation is not the bytes' order (an ICU en-US database, as a
server initialized in an English locale has) releases what DuckDB releases: ldiv_db ranks character
values in the bytes' order on every engine (``COLLATE "C"`` in the templates that rank them). Before,
mondrian, tp+, hilbert and bsgi released other groups there (still verified, but not DuckDB's)."""

from __future__ import annotations

import csv
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ldiv_db
from ldiv_db.commands import attack
from ldiv_db.db import Database
from ldiv_db.errors import BadInput

from .test_pg_adult import assert_same_release

pytestmark = pytest.mark.postgres

WORDS = [
    "apple",
    "Banana",
    "cherry",
    "Delta",
    "echo",
    "_x",
    "Zulu",
    "zeta",
    "a-b",
    "ab",
    "A b",
    "Éclair",
    "eclair",
]
DISEASES = ["flu", "Flu", "HIV", "hiv", "cancer", "Cancer", "_none", "b-x", "bx"]
QI = ["age", "city", "job"]
ROWS = 2000


def _csv(path: Path) -> Path:
    rng = random.Random(3)
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["age", "city", "job", "disease"])
        for _ in range(ROWS):
            out.writerow(
                [rng.randrange(20, 70), rng.choice(WORDS), rng.choice(WORDS[::-1]), rng.choice(DISEASES)]
            )
    return path


@pytest.fixture(scope="module")
def both(pg_server, tmp_path_factory) -> Iterator[tuple[Database, Database]]:  # type: ignore[no-untyped-def]
    name = "icu_en"
    with pg_server.admin() as con:
        try:
            con.execute(
                f"CREATE DATABASE {name} OWNER ldiv_tester TEMPLATE template0 ENCODING 'UTF8' "
                "LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.utf8'"
            )
        except Exception as exc:  # a server built without ICU
            pytest.skip(f"this PostgreSQL server cannot create an ICU database: {exc}")
    data = _csv(tmp_path_factory.mktemp("collation") / "mixed.csv")
    dbs = []
    for target in (str(data.with_suffix(".duckdb")), pg_server.url(name)):
        db = Database.open(target)
        ldiv_db.load(db, data, "mixed")
        dbs.append(db)
    yield dbs[0], dbs[1]
    for db in dbs:
        db.close()


def test_the_database_orders_text_otherwise(both) -> None:  # type: ignore[no-untyped-def]
    """The premise: in this database 'Banana' sorts after 'apple', where the bytes put it first."""
    _, pg = both
    assert pg.raw_rows("SELECT 'Banana' < 'apple', 'Banana' < 'apple' COLLATE \"C\"") == [(False, True)]


@pytest.mark.parametrize(
    ("algorithm", "kwargs"),
    [("mondrian", {"model": "distinct"}), ("tp", {}), ("tp+", {}), ("hilbert", {}), ("bsgi", {})],
)
def test_the_release_is_duckdbs(both, algorithm: str, kwargs: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    assert_same_release(*both, algorithm, QI, "disease", {"l": 3, **kwargs}, table="mixed")


def test_check_is_duckdbs(both) -> None:  # type: ignore[no-untyped-def]
    a, b = (ldiv_db.check(db, "mixed", QI, "disease", model="recursive", l=3, c=3).to_dict() for db in both)
    for d in (a, b):
        for k in ("seconds", "queries", "worst"):
            d.pop(k)
    assert a == b
    assert a["rows"] == ROWS


def test_the_similarity_attack_is_duckdbs(both) -> None:  # type: ignore[no-untyped-def]
    """Its ties (the first group, a group's first value) follow the bytes' order too: on the source and on
    a release the reported value and group are DuckDB's (before, 'b-x' / 'bx' and 'flu' / 'Flu')."""
    categories = {v: i % 3 + 1 for i, v in enumerate(DISEASES)}
    duck, pg = both
    for db in both:
        ldiv_db.anonymize(db, "mixed", QI, "disease", algorithm="tp+", output="m_attack", replace=True, l=3)
    for table in ("mixed", "m_attack"):
        a, b = (
            attack.similarity(db, table, QI, "disease", categories=categories).to_dict() for db in (duck, pg)
        )
        for d in (a, b):
            d.pop("seconds", None)
            d.pop("queries", None)
        assert a == b, table


def test_the_report_lists_the_sa_values_in_duckdbs_order(both, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Values with equal counts are listed in the bytes' order on both engines (the report's bars): here
    every value has the same count, so the order is the values' alone ('Banana' before 'apple')."""
    from ldiv_db.reporting.gather import gather

    ties = tmp_path / "ties.csv"
    values = ["apple", "Banana", "cherry", "Delta"]
    ties.write_text(
        "age,disease\n" + "".join(f"{20 + i % 3},{values[i % 4]}\n" for i in range(24)), encoding="utf-8"
    )
    for db in both:
        ldiv_db.load(db, ties, "ties", replace=True)
        ldiv_db.anonymize(
            db, "ties", ["age"], "disease", algorithm="tp", output="ties_release", replace=True, l=2
        )
    duck, pg = (gather(db, "ties_release", kl=False).sa_counts["disease"] for db in both)
    assert [v for v, *_ in duck] == ["Banana", "Delta", "apple", "cherry"]
    assert pg == duck


def test_messages_name_the_same_values(both) -> None:  # type: ignore[no-untyped-def]
    """An error that names the first values of a list (here the SA values without a category) names the
    same ones, in the same order, on both engines."""
    messages = []
    for db in both:
        with pytest.raises(BadInput, match="have no category") as info:
            attack.similarity(db, "mixed", QI, "disease", categories={"flu": 1})
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "'Cancer', 'Flu', 'HIV', '_none', 'b-x'" in messages[0]


@pytest.mark.parametrize("column", ["city", "disease"])
@pytest.mark.parametrize("algorithm", ["mondrian", "bsgi", "tp", "tp+", "hilbert"])
def test_a_case_insensitive_column_releases_as_on_duckdb(both, algorithm: str, column: str) -> None:  # type: ignore[no-untyped-def]
    """A QI (city) or the SA (disease) of a nondeterministic, case-insensitive ICU collation: PostgreSQL
    holds its case variants one value, as DuckDB does in a NOCASE column, and both engines release with
    the same metrics, verified. Before, with such a QI mondrian and bsgi ended in 'query
    metrics/labels.sql failed: nondeterministic collations are not supported for regular expressions',
    and with such an SA mondrian's release failed its verification ('violates distinct(l=[3])', nothing
    published): it coded 'flu' and 'FLU' as two SA values where the verification counts one."""
    duck, pg = both
    cols = {c: "VARCHAR" for c in ("city", "job", "disease")}
    spell = {c: c for c in cols}
    spell[column] = f"CASE WHEN age % 3 = 0 THEN upper({column}) ELSE {column} END"
    select = ", ".join(["age", *(spell[c] for c in cols)])
    duck.execute_script(
        "ci",
        "CREATE OR REPLACE TABLE mixed_ci (age INTEGER, "
        + ", ".join(f"{c} VARCHAR" + (" COLLATE NOCASE" if c == column else "") for c in cols)
        + f"); INSERT INTO mixed_ci SELECT {select} FROM mixed",
    )
    pg.execute_script(
        "ci",
        "CREATE COLLATION IF NOT EXISTS public.ldiv_test_ci (provider = icu, locale = 'und-u-ks-level2', "
        "deterministic = false); DROP TABLE IF EXISTS main.mixed_ci; CREATE TABLE main.mixed_ci (age INTEGER, "
        + ", ".join(f"{c} TEXT" + (" COLLATE public.ldiv_test_ci" if c == column else "") for c in cols)
        + f"); INSERT INTO main.mixed_ci SELECT {select} FROM main.mixed",
    )
    # the premise: upper-cased spellings are other bytes, but the same value to the column's collation
    spellings = f'SELECT count(DISTINCT {column} COLLATE "C"), count(DISTINCT {column}) FROM {{}}'
    values = WORDS if column == "city" else DISEASES
    expected = [(len(set(values) | {v.upper() for v in values}), len({v.lower() for v in values}))]
    assert pg.raw_rows(spellings.format("main.mixed_ci")) == expected
    assert duck.raw_rows(spellings.format("mixed_ci")) == expected
    results = [
        ldiv_db.anonymize(
            db, "mixed_ci", QI, "disease", algorithm=algorithm, output="ci_out", replace=True, l=3
        )
        for db in (duck, pg)
    ]
    for r in results:
        assert r.verified
        assert r.rows_in == r.rows_published + r.rows_deleted == ROWS
    keys = ("il", "dm", "classes", "avg_class_size")
    assert [results[0].metrics[k] for k in keys] == pytest.approx(
        [results[1].metrics[k] for k in keys], rel=1e-9
    )


@pytest.mark.parametrize(("algorithm", "name"), [("lplus", "l+-Optimize"), ("topdown", "top-down")])
def test_a_case_insensitive_sa_is_refused_where_spellings_are_counted(
    both,  # type: ignore[no-untyped-def]
    algorithm: str,
    name: str,
) -> None:
    """l+-Optimize and top-down code SA values in Python by their spelling, so under a case-insensitive
    collation they counted 'flu' and 'FLU' as two values and their releases failed verification ('a bug
    in the algorithm'). They refuse such an SA up front, on both engines, naming the column and the fix."""
    for db, collate in ((both[0], "COLLATE NOCASE"), (both[1], "COLLATE public.ldiv_test_ci")):
        if db is both[1]:
            db.execute_script(
                "ci",
                "CREATE COLLATION IF NOT EXISTS public.ldiv_test_ci (provider = icu, "
                "locale = 'und-u-ks-level2', deterministic = false)",
            )
        db.execute_script(
            "ci",
            "DROP TABLE IF EXISTS main.sa_ci; CREATE TABLE main.sa_ci (age INTEGER, city VARCHAR, job VARCHAR, "
            f"disease VARCHAR {collate}); INSERT INTO main.sa_ci SELECT age, city, job, disease FROM main.mixed",
        )
        model = {"model": "distinct"} if algorithm == "topdown" else {}
        with pytest.raises(BadInput, match=r"'disease' holds 9 spellings of 6 values.*" + re.escape(name)):
            ldiv_db.anonymize(
                db, "sa_ci", QI, "disease", algorithm=algorithm, output="sa_ci_out", l=2, **model
            )
        assert not db.exists(ldiv_db.sqlgen.render.TableRef("sa_ci_out", "main"))
