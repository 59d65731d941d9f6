"""The hostile shapes' tables and side files for bench.shapes, made on DuckDB (a file per table size) or on a
throw-away PostgreSQL server (tests/engines/pg_server.py, a database per table size): the shapes' SQL,
the stream tables of ``--commands more``, the CSV and ARX files of ``--commands rest`` and the sensitivity
categories of ``--commands models``, the same rows on either engine.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

# each shape: the SELECT list over the integers i from 0 (QIs q1.., SA s)
SHAPES: dict[str, str] = {
    "giant": "0 AS q1, 0 AS q2, 'v' || (i % 40) AS s",
    "sa_unique": "i % 37 AS q1, (i * 7) % 23 AS q2, 'v' || i AS s",
    "qi_unique": "i AS q1, i % 7 AS q2, 'v' || (i % 11) AS s",
    "many_qi": ", ".join(f"(i * {p}) % {m} AS q{j + 1}" for j, (p, m) in enumerate(
        [(7, 2), (11, 3), (13, 4), (17, 5), (19, 3), (23, 2), (29, 6), (31, 4), (37, 3), (41, 5), (43, 2), (47, 7)]
    )) + ", 'v' || (i % 13) AS s",
    "long_text": "i % 29 AS q1, (i * 7) % 17 AS q2, repeat('x', 190) || lpad(CAST(i % 40 AS VARCHAR), 10, '0') AS s",
    "nulls": "CASE WHEN i % 3 = 0 THEN NULL ELSE i % 31 END AS q1, CASE WHEN i % 3 = 1 THEN NULL ELSE (i * 7) % 19 END AS q2, "
    "CASE WHEN i % 3 = 2 THEN NULL ELSE 'v' || (i % 9) END AS s",
    "both_unique": "i AS q1, (i * 7) % 23 AS q2, 'v' || ((i * 7919) % 1000003) AS s",
    "skewed": "i % 37 AS q1, (i * 7) % 23 AS q2, CASE WHEN i % 10 < 7 THEN 'common' ELSE 'v' || (i % 997) END AS s",
    "sa_numeric": "i AS q1, (i * 7) % 23 AS q2, (i * 7919) % 1000003 AS s",
}  # fmt: skip

WARM_ROWS = 200  # the small table ``w`` each command runs on first, in its process


def qis(shape: str) -> list[str]:
    """The shape's QI columns, q1, q2, ... in number order."""
    found = {c.split(" AS ")[-1].strip() for c in SHAPES[shape].split(", ") if " AS q" in c}
    return sorted(found, key=lambda c: int(c[1:]))


@dataclass(frozen=True)
class Made:
    """One size of a shape: the ``DB`` argument, the prefix of its side files, its QIs, whether its SA is
    numeric (the ordered distance), and the engine (``duckdb`` or ``postgres``)."""

    db: str
    files: str
    qis: list[str]
    numeric: bool
    engine: str


class Tables:
    """Makes a shape's tables (``t`` of n rows, ``w`` of :data:`WARM_ROWS`) and what a command set reads
    beside them. The DuckDB and PostgreSQL spellings differ only in the row source and integer division."""

    engine = "duckdb"
    div = "//"

    def __init__(self, tmp: str) -> None:
        self.tmp = Path(tmp)

    def database(self, shape: str, rows: int, tag: str) -> str:
        return str(self.tmp / f"{shape}_{rows}_{tag}.duckdb")

    def series(self, lo: int, hi: int) -> str:
        return f"range({lo}, {hi}) AS r(i)"

    def execute(self, db: str, sql: str) -> list[tuple[Any, ...]]:
        con = duckdb.connect(db)
        try:
            cur = con.execute(sql)
            return cur.fetchall() if cur.description else []
        finally:
            con.close()

    def make(self, shape: str, rows: int, tag: str, commands: str) -> Made:
        db = self.database(shape, rows, tag)
        files = str(self.tmp / f"{shape}_{rows}_{tag}")
        for table, n in (("t", rows), ("w", WARM_ROWS)):
            self.execute(db, f"CREATE TABLE {table} AS SELECT {SHAPES[shape]} FROM {self.series(0, n)}")
        if commands == "models":
            self._categories(db, files)
        if commands == "more":
            self._stream(db, shape, rows)
        if commands == "rest":
            self._rest(db, files, shape)
        typed = self.execute(db, f"SELECT {self.type_of('s')} FROM t LIMIT 1")
        numeric = bool(typed) and str(typed[0][0]).upper() in ("INTEGER", "BIGINT")
        return Made(db, files, qis(shape), numeric, self.engine)

    def type_of(self, column: str) -> str:
        return f"typeof({column})"

    def hashed(self, column: str) -> str:
        return f"hash({column})"

    def _categories(self, db: str, files: str) -> None:
        """Each table's SA values in three sensitivity categories (``value;category``, 1 = most sensitive),
        by a hash of the value."""
        for table in ("t", "w"):
            rows = self.execute(
                db, f"SELECT DISTINCT s, 1 + {self.hashed('s')} % 3 FROM {table} WHERE s IS NOT NULL"
            )
            with open(f"{files}.{table}.categories", "w", newline="") as f:
                csv.writer(f, delimiter=";").writerows(rows)

    def _stream(self, db: str, shape: str, rows: int) -> None:
        """``{t,w}_first``: the rows of ``t`` and ``w`` with a key ``id`` and a primary SA ``p`` of two values
        (the two-SA stream); ``{t,w}_next``: the next batch, a quarter as many new rows (ids after the first's)."""
        for table, n in (("t", rows), ("w", WARM_ROWS)):
            for name, lo, hi in (("first", 0, n), ("next", n, n + n // 4)):
                self.execute(db, f"CREATE TABLE {table}_{name} AS SELECT i AS id, {SHAPES[shape]}, 'p' || (i % 2) AS p "
                             f"FROM {self.series(lo, hi)}")  # fmt: skip

    def _rest(self, db: str, files: str, shape: str) -> None:
        """Each table as a CSV (header, ``,``), and an ARX-format hierarchy of its first QI (value;
        d + value // 10; h + value // 100; *) for the loaded copy."""
        q = qis(shape)[0]
        for table in ("t", "w"):
            rows = self.execute(db, f"SELECT * FROM {table}")
            names = [c for c, *_ in self.execute(db, self.columns(table))]
            with open(f"{files}.{table}.csv", "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(names)
                w.writerows(["" if v is None else v for v in row] for row in rows)
            levels = self.execute(db, f"SELECT DISTINCT {q}, 'd' || ({q} {self.div} 10), 'h' || ({q} {self.div} 100), '*' "
                                  f"FROM {table} WHERE {q} IS NOT NULL")  # fmt: skip
            with open(f"{files}.{table}.hier.csv", "w", newline="") as f:
                csv.writer(f, delimiter=";").writerows(levels)

    def columns(self, table: str) -> str:
        return f"SELECT column_name FROM information_schema.columns WHERE table_name = '{table}' ORDER BY ordinal_position"

    def stop(self) -> None:
        pass


class PostgresTables(Tables):
    """A throw-away local server, a database per table size; integers are bigint (the shapes' products pass
    2**31 from 271,000 rows)."""

    engine = "postgres"
    div = "/"

    def __init__(self, tmp: str) -> None:
        from tests.engines import pg_server

        super().__init__(tmp)
        self.server = pg_server.start()

    def database(self, shape: str, rows: int, tag: str) -> str:
        return self.server.url(self.server.new_database("shape"))

    def series(self, lo: int, hi: int) -> str:
        return f"generate_series({lo}::bigint, {hi - 1}) AS r(i)"

    def execute(self, db: str, sql: str) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(db, autocommit=True) as con:
            cur = con.execute(sql)
            rows = cur.fetchall() if cur.description else []
            if sql.startswith("CREATE TABLE"):
                con.execute(f"ANALYZE {sql.split()[2]}")
            return rows

    def type_of(self, column: str) -> str:
        return f"pg_typeof({column})::text"

    def hashed(self, column: str) -> str:
        return f"abs(hashtext({column}::text)::bigint)"

    def columns(self, table: str) -> str:
        return super().columns(table).replace("WHERE", "WHERE table_schema = 'public' AND")

    def stop(self) -> None:
        self.server.stop()
