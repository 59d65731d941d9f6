"""``ldiv sql install DB``: ldiv_db's checks as functions of the database itself, in schema ``ldiv``, for
an analyst in a SQL console and for tools that run a query and read its rows (Great Expectations'
unexpected rows, Soda's failed rows, dbt tests):

* ``ldiv.l_diversity(table, qi, sa)``: one row, the statistics ``ldiv check --json`` reports (classes,
  rows, k, distinct_l, entropy_l, frequency_l);
* ``ldiv.violations(table, qi, sa, model, n)``: the classes violating k-anonymity (n = k), distinct,
  entropy, frequency or unique-distinct l-diversity (n = l), or l+ with θ = 1/l for every value (n = l, as ``ldiv check --model lplus --l n``);
  ``ldiv.recursive_violations(table, qi, sa, l, c)``: recursive (c,l)-diversity;
* ``ldiv.class_stats(table, qi, sa)``: per class its size, distinct values, top count, entropy, counts.

DuckDB gets table macros (``sql/functions/*.sql``), PostgreSQL PL/pgSQL functions (their ``.postgres.sql``
variants, identifiers quoted by ``format('%I')`` and the table parsed by ``regclass``). The classes are
the QI values with NULL a value of its own (``ldiv check --null-as-value``). What SQL does not express:
the (l,α) family (category weights come from files or stored categories), l+ with a threshold per value,
several SAs at once, and a recorded release's own classes (pass its group column among the ``qi``).

Installing is idempotent (``CREATE OR REPLACE``, in one transaction, on a database migrated to this
ldiv_db's schema) and versioned: ``ldiv.sql_functions_version()`` returns :data:`REVISION`, and functions of
a newer revision are never replaced by older ones."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..db import Database
from ..errors import BadInput, MigrationError
from ..sqlgen.render import render

REVISION = 1  # sql/functions/version.sql returns the same number (tests/unit hold them equal)

# in install order: a macro is created after those it calls
FUNCTIONS = ("class_stats", "l_diversity", "violations", "recursive_violations", "version")


@dataclass(frozen=True)
class InstallResult:
    database: str
    engine: str
    revision: int
    replaced: int | None  # the revision installed before (None: none was)
    functions: list[str]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "database": self.database,
            "engine": self.engine,
            "revision": self.revision,
            "replaced_revision": self.replaced,
            "functions": self.functions,
            "seconds": round(self.seconds, 4),
        }

    def render_text(self) -> str:
        before = "" if self.replaced is None else f" (replacing revision {self.replaced})"
        return (
            f"installed ldiv_db's SQL functions, revision {self.revision}{before}, in schema ldiv of "
            f"{self.database} ({self.engine}):\n  " + "\n  ".join(self.functions)
        )


def installed_revision(db: Database) -> int | None:
    """The revision of the functions installed in ``db`` (None: none are)."""
    if not int(db.scalar(render("functions/installed.sql"))):
        return None
    return int(db.scalar(render("functions/revision.sql")))


def install(db: Any) -> InstallResult:
    """Create (or replace) the SQL functions in schema ``ldiv`` of ``db``."""
    t0 = time.perf_counter()
    database = Database.open(db, mode="write")
    try:
        if database.dialect not in ("duckdb", "postgres"):
            raise BadInput(
                f"ldiv sql install works on DuckDB and PostgreSQL, not {database.dialect}",
                "Spark SQL functions cannot take a table name to read; use ldiv check or the dbt package",
            )
        before = installed_revision(database)
        if before is not None and before > REVISION:
            raise MigrationError(
                f"the SQL functions in this database are revision {before}, newer than this ldiv_db's "
                f"({REVISION}); they were not replaced",
                "upgrade ldiv_db to install them from it",
            )
        with database.transaction():
            for name in FUNCTIONS:
                database.run(render(f"functions/{name}.sql"))
        names = [
            "ldiv.l_diversity(table, qi, sa)",
            "ldiv.violations(table, qi, sa, model, n)",
            "ldiv.recursive_violations(table, qi, sa, l, c)",
            "ldiv.class_stats(table, qi, sa)",
            "ldiv.sql_functions_version()",
        ]
        where = str(database.path or "the database")
        return InstallResult(where, database.dialect, REVISION, before, names, time.perf_counter() - t0)
    finally:
        if database is not db:
            database.close()
