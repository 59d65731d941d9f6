"""The Spark engine's catalog listings (ldiv_db/db/spark/catalog.py: Listings) are forgotten before a
statement that may create, drop or rename a table outside the work schema
(``SparkDatabase._catalog_changes``): as the templates render it, with their header comment lines."""

from __future__ import annotations

from typing import Any

import pytest

from ldiv_db.db.spark.engine import SparkDatabase
from ldiv_db.sqlgen.render import Ident, TableRef, render


class _Listings:
    def __init__(self) -> None:
        self.forgotten = 0

    def forget(self) -> None:
        self.forgotten += 1


class _Engine:
    """What ``_catalog_changes`` reads of the engine: its work schema and its listings."""

    work_schema = "ldiv_work_1"

    def __init__(self) -> None:
        self.listings = _Listings()


def _forgotten(sql: str) -> int:
    engine: Any = _Engine()
    SparkDatabase._catalog_changes(engine, sql)
    return int(engine.listings.forgotten)


def test_a_rendered_create_outside_the_work_schema_forgets_the_listings() -> None:
    # Decomposition+ creates its staged tables beside the output: a template with its header lines
    sql = render(
        "decomposition/write_sa.sql",
        output=TableRef("pdec_sa__ldiv_stage_1", "main"),
        previous=None,
        sa_rows=TableRef("rows", "ldiv_work_1"),
        sa=[Ident("disease")],
        group_column=Ident("gid"),
    ).sql
    assert sql.startswith("-- purpose:")
    assert _forgotten(sql) == 1


@pytest.mark.parametrize(
    ("sql", "forgets"),
    [
        ("/* a */ -- b\n  DROP TABLE main.t", 1),
        ("-- purpose: x\n-- params: none\nALTER TABLE main.t RENAME TO u", 1),
        ("-- purpose: x\nCREATE TABLE ldiv_work_1.scratch AS SELECT 1 AS a", 0),  # the work schema's own
        ("-- purpose: x\nSELECT * FROM main.t", 0),
        ("-- purpose: x\nINSERT INTO main.t SELECT 1", 0),  # the table was there and stays
    ],
)
def test_what_forgets_the_listings(sql: str, forgets: int) -> None:
    assert _forgotten(sql) == forgets
