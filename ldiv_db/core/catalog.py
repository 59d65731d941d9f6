"""Resolves user-typed table and column names against the real catalog (case-insensitively) and
produces clear errors that list what does exist."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..db import RUN_WORK_SCHEMA, Database, ldiv_schema_name
from ..errors import BadInput
from ..sqlgen.render import Ident, TableRef, quote, render

NUMERIC_TYPES = (
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "UHUGEINT",
    "FLOAT",
    "DOUBLE",
    "REAL",
    "DOUBLE PRECISION",  # PostgreSQL's spellings
    "NUMERIC",
)

# integer types whose every value is a DECIMAL(38, 0) (see Column.is_integer)
INTEGER_TYPES = (
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "INT",
)
_SCALE_0 = re.compile(r"^(DECIMAL|NUMERIC)\(\s*\d+\s*,\s*0\s*\)$")

# character string types: their values are ordered by collation (see Column.is_text)
TEXT_TYPES = ("VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR", "CHARACTER", "CHARACTER VARYING", "NAME")


@dataclass(frozen=True)
class Column:
    name: str
    data_type: str
    position: int

    @property
    def ident(self) -> Ident:
        return Ident(self.name)

    @property
    def is_text(self) -> bool:
        """A character string column (DuckDB's, PostgreSQL's and Spark's spellings): ordering its values
        depends on a collation, which ldiv_db fixes to the bytes' order (``COLLATE "C"``) on every engine."""
        t = self.data_type.upper()
        return t in TEXT_TYPES or t.startswith(("VARCHAR(", "CHAR(", "CHARACTER(", "CHARACTER VARYING("))

    @property
    def is_numeric(self) -> bool:
        t = self.data_type.upper()
        return t in NUMERIC_TYPES or t.startswith(("DECIMAL", "NUMERIC"))

    @property
    def is_integer(self) -> bool:
        """Integer values that DECIMAL(38, 0) holds exactly: the metrics compute their bounds exactly,
        where a DOUBLE would merge values above 2^53 (``sql/metrics/domain.sql``)."""
        t = self.data_type.upper()
        return t in INTEGER_TYPES or _SCALE_0.match(t) is not None


@dataclass(frozen=True)
class Table:
    ref: TableRef
    kind: str
    columns: tuple[Column, ...]
    # the table this one stands in for, where ``ref`` is a copy of it (the seeded copy an algorithm reads,
    # ldiv_db/pipeline/opaque.py): names, hierarchies and messages are the original's
    copy_of: TableRef | None = None

    @property
    def name(self) -> str:
        """The canonical display name: schema.table in the current database, catalog.schema.table otherwise."""
        return (self.copy_of or self.ref).display()

    def column(self, spelled: str) -> Column:
        exact = [c for c in self.columns if c.name == spelled]
        if exact:
            return exact[0]
        folded = [c for c in self.columns if c.name.lower() == spelled.lower()]
        if len(folded) == 1:
            return folded[0]
        if len(folded) > 1:
            raise BadInput(
                f"column {spelled!r} is ambiguous in {self.name}: {', '.join(c.name for c in folded)}",
                "spell it with the exact case",
            )
        raise BadInput(
            f"unknown column {spelled!r} in {self.name}",
            f"the columns are: {', '.join(c.name for c in self.columns)}",
        )

    def columns_of(self, spelled: Sequence[str]) -> list[Column]:
        return [self.column(s) for s in spelled]


def split_name(spelled: str) -> list[str]:
    """Split ``catalog.schema.table`` into its parts. A part that starts with a double quote is quoted
    SQL-style (``"a.b"``, ``"q""x"``: dots and doubled quotes inside); any other part is taken literally
    up to the next dot, quotes included (``fd2 "x"``, ``a"b``, ``it's``)."""
    parts: list[str] = []
    i, n = 0, len(spelled)
    while True:
        if i < n and spelled[i] == '"':
            buf: list[str] = []
            j = i + 1
            while j < n and not (spelled[j] == '"' and spelled[j + 1 : j + 2] != '"'):
                buf.append(spelled[j])
                j += 2 if spelled[j] == '"' else 1
            if j >= n or (j + 1 < n and spelled[j + 1] != "."):
                raise _unreadable(spelled)
            parts.append("".join(buf))
            i = j + 1
        else:
            k = spelled.find(".", i)
            parts.append(spelled[i:] if k < 0 else spelled[i:k])
            i = n if k < 0 else k
        if i >= n:
            break
        i += 1  # the dot
        if i >= n:
            raise _unreadable(spelled)
    if any(p == "" for p in parts) or len(parts) > 3:
        raise _unreadable(spelled)
    return parts


def _unreadable(spelled: str) -> BadInput:
    return BadInput(
        f"cannot read the table name {spelled!r}",
        'use table, schema.table or catalog.schema.table; quote a part holding a dot: "a.b"',
    )


def resolve_table(db: Database, spelled: str) -> Table:
    """Find a table or view by its user spelling; errors list the tables that exist."""
    parts = split_name(spelled)
    everything = [  # not another run's work tables (PostgreSQL's parallel_work schemas)
        r for r in db.rows(render("catalog/tables.sql")) if not RUN_WORK_SCHEMA.fullmatch(str(r[1]))
    ]

    def matches(row: tuple[object, ...], fold: bool) -> bool:
        cat, sch, name = str(row[0]), str(row[1]), str(row[2])
        have = [cat, sch, name][3 - len(parts) :]
        if fold:
            return [h.lower() for h in have] == [p.lower() for p in parts]
        return have == parts

    found = [r for r in everything if matches(r, fold=False)] or [
        r for r in everything if matches(r, fold=True)
    ]
    if len(found) > 1 and len(parts) < 3:
        default = [r for r in found if r[4]]
        found = default or found
    if not found and len(parts) > 1 and ldiv_schema_name(parts[-2]):
        raise BadInput(
            f"{spelled!r} is in the {parts[-2].lower()} schema, which holds ldiv_db's own records and work "
            "tables and is closed to user commands",
            "name a data table of your own",
        )
    if not found:
        names = sorted(
            {f"{r[1]}.{r[2]}" if r[0] == everything[0][0] else f"{r[0]}.{r[1]}.{r[2]}" for r in everything}
        )
        listing = ", ".join(names[:30]) + (" ..." if len(names) > 30 else "") if names else "none"
        unseen = (  # PostgreSQL's catalog lists only the tables a role holds a privilege on
            "; a table this role has no privilege on is not listed: GRANT SELECT ON TABLE ... TO role"
            if db.lists_only_granted_tables
            else ""
        )
        raise BadInput(
            f"unknown table {spelled!r}",
            f"tables in this database: {listing}; load a file with `ldiv load DB FILE --table NAME`{unseen}",
        )
    if len(found) > 1:
        raise BadInput(
            f"table name {spelled!r} is ambiguous: " + ", ".join(f"{r[0]}.{r[1]}.{r[2]}" for r in found),
            "qualify it as schema.table or catalog.schema.table",
        )
    cat, sch, name, kind = str(found[0][0]), str(found[0][1]), str(found[0][2]), str(found[0][3])
    current = bool(found[0][4]) or cat == _current_database(db)
    ref = TableRef(name, sch, None if current else cat)
    if current and cat != db.temp_catalog:
        _not_hidden(ref, [(str(r[0]), str(r[1]), str(r[2])) for r in everything], db.temp_catalog)
    cols = db.rows(render("catalog/columns.sql", {"catalog": cat, "schema": sch, "name": name}))
    return Table(ref, kind, tuple(Column(str(n), str(t), int(p)) for n, t, p in cols))


def _not_hidden(ref: TableRef, listed: list[tuple[str, str, str]], temp: str | None) -> None:
    """A table of the working database that a temporary table or view of the same schema and name hides:
    every statement naming it ``schema.table`` would read (or drop) the temporary one instead."""
    key = ((ref.schema or "").lower(), ref.name.lower())
    if temp is not None and any(c == temp and (s.lower(), n.lower()) == key for c, s, n in listed):
        raise hidden_by_temporary(ref, temp)


def hidden_by_temporary(ref: TableRef, temp: str) -> BadInput:
    return BadInput(
        f"{ref.display()} is hidden by a temporary table or view of the same name on this connection: "
        f"a statement naming {ref.display()} would read or replace the temporary one",
        f"drop or rename the temporary table or view ({temp}.{ref.display()}), or name it to use it",
    )


def table_at(db: Database, ref: TableRef) -> Table:
    """The table of the working database that a resolved reference names. References stay structured
    end to end: a display string (``main.fd2 "x"``) is never parsed back into a name."""
    rows = db.rows(render("catalog/table_info.sql", {"schema": ref.schema or "main", "name": ref.name}))
    if ref.catalog is not None or not rows:
        raise BadInput(f"table {ref.display()} does not exist in the working database")
    sch, name, kind = (str(x) for x in rows[0])
    cat = _current_database(db)
    cols = db.rows(render("catalog/columns.sql", {"catalog": cat, "schema": sch, "name": name}))
    return Table(TableRef(name, sch), kind, tuple(Column(str(n), str(t), int(p)) for n, t, p in cols))


def require_row_ids(db: Database, table: Table, needs: str) -> None:
    """``needs`` (a command) identifies the table's rows by their row ids: the table must be a base table
    (a view has none) whose rows are numbered in it alone. On PostgreSQL a row's id is its physical
    address, which each partition (or inheritance child) numbers on its own, so the rows of a
    partitioned table or an inheritance parent would share ids, and a row map over them would be wrong.
    On DuckDB a column named ``rowid`` hides the row ids. A Spark table has no row ids: its rows are
    identified by the integer column ``ldiv_rowid`` that ``ldiv load`` writes, which must be there, unique
    and never NULL. The rows must be committed: DuckDB's ids of rows an open transaction wrote are
    provisional (issue 51, class 8)."""
    copy = f"CREATE TABLE t AS SELECT * FROM {table.name}"  # noqa: S608 - advice shown to the user
    if table.kind.upper() != "BASE TABLE":
        kind = table.kind.lower()
        what = f"a {kind}" if "view" in kind else f"a {kind} table, not a base table"
        raise BadInput(
            f"{table.name} is {what}; {needs} needs a base table (its rows need stable row ids)",
            f"materialize it first: {copy}",
        )
    ref = table.ref
    if ref.catalog is not None:
        return
    if _uncommitted_rows(db, ref):
        raise BadInput(
            f"{table.name} holds rows that the open transaction wrote and has not committed; {needs} links "
            "every published row to its source row by row id, and the ids of uncommitted rows are "
            "provisional (renumbered at commit), so the link would name rows that do not exist",
            "commit the transaction that loaded or inserted the rows first (a job file commits its load "
            "before it anonymizes)",
        )
    found = db.rows(render("catalog/row_ids.sql", {"schema": ref.schema or "main", "name": ref.name}))
    problem = found[0][0] if found else None
    if problem == "shadowed":
        hiding = next((c.name for c in table.columns if c.name.lower() == "rowid"), "rowid")
        renamed = f"CREATE TABLE t AS SELECT * RENAME ({quote(hiding)} AS source_rowid) FROM {table.name}"  # noqa: S608 - advice shown to the user
        raise BadInput(
            f"{table.name} has a column named {hiding!r}, which hides the table's own row ids (rowid then "
            f"reads that column); {needs} needs every row's id to be its own",
            f"anonymize a copy with that column renamed: {renamed}",
        )
    if problem == "shared":
        raise BadInput(
            f"{table.name} is a partitioned table (or has inheritance children) on PostgreSQL, whose "
            f"partitions number their rows each on their own; {needs} needs every row's id to be its own",
            f"anonymize one partition, or a plain copy: {copy}",
        )
    if problem is not None:  # Spark: the row id column ldiv load writes
        what = {
            "missing": "has no row id column ldiv_rowid (a Spark table has no row ids of its own)",
            "not integer": "has an ldiv_rowid column that is not an integer column",
            "repeated": "has an ldiv_rowid column whose values repeat or are NULL",
        }.get(str(problem), f"has no usable row ids ({problem})")
        add = f"CREATE TABLE t USING parquet AS SELECT *, monotonically_increasing_id() AS ldiv_rowid FROM {table.name}"  # noqa: S608 - advice shown to the user
        fix = (
            f"load the table with `ldiv load` (it writes ldiv_rowid), or add one: {add}"
            if problem == "missing"
            else "give every row its own integer ldiv_rowid (monotonically_increasing_id() makes one), "
            "or load the table with `ldiv load`"
        )
        raise BadInput(f"{table.name} {what}; {needs} needs a unique integer row id per row", fix)


def _uncommitted_rows(db: Database, ref: TableRef) -> bool:
    """Whether the table holds rows the open transaction wrote and has not committed (their row ids are
    provisional), on an engine that numbers such rows apart (``Database.local_row_base``)."""
    if db.local_row_base is None:
        return False
    q = render("catalog/uncommitted_rows.sql", {"local_base": db.local_row_base}, source=ref)
    return bool(db.scalar(q))


def _current_database(db: Database) -> str:
    return str(db.raw_rows("SELECT current_database()")[0][0])


def output_ref(spelled: str) -> TableRef:
    """Where a release is written: ``name`` or ``schema.name`` in the current database."""
    parts = split_name(spelled)
    if len(parts) == 3:
        raise BadInput(
            f"output {spelled!r} names another catalog", "write releases into the working database"
        )
    if len(parts) == 2:
        return TableRef(parts[1], parts[0])
    return TableRef(parts[0], "main")


def check_distinct_roles(qi: Sequence[Column], sa: Sequence[Column], extra: Sequence[Column] = ()) -> None:
    """QI, SA (and group/class columns) must not overlap."""
    seen: dict[str, str] = {}
    for role, cols in (("QI", qi), ("SA", sa), ("other", extra)):
        for c in cols:
            if c.name in seen:
                raise BadInput(
                    f"column {c.name!r} is given both as {seen[c.name]} and as {role}",
                    "a column is either a quasi-identifier or a sensitive attribute, not both",
                )
            seen[c.name] = role
