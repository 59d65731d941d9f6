"""The ``ldiv`` schema as the shipped migrations define it, compared with what a database file holds.

Every open runs :func:`prepare` (from :meth:`Database.open`), the one place that decides what an open may
do to the file:

* both modes first compare the file's ``ldiv`` objects and columns with the expected ones (one catalog
  query) and the recorded migrations with the shipped files; a missing or changed object, or a migration
  whose row is missing, is refused before anything is written (``ldiv doctor DB --repair`` restores
  what can be restored safely);
* ``write`` then applies the pending migrations and marks the runs a dead process left ``running`` as
  ``interrupted`` (:mod:`ldiv_db.schema.runs`);
* ``read`` writes nothing: the objects the file lacks (no ``ldiv`` schema at all, or an older migration
  version) are provided empty by an in-memory catalog on the search path, behind the file's own.

The expected objects come from applying the shipped migrations to a scratch in-memory catalog, once per
process, with a snapshot after each migration (an object's columns may change in a later one); the
snapshots' rows are kept in the user's cache for the next process (:mod:`.kept`).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import MigrationError
from . import kept
from .migrate import (
    BOOKKEEPING,
    applied_migrations,
    apply_migrations,
    migration_problems,
    shipped_migrations,
    verify_applied,
)
from .runs import mark_stale_runs
from .server import prepare_server

if TYPE_CHECKING:
    from .database import SchemaDatabase

EMPTY_CATALOG = "ldiv_empty"  # the in-memory catalog that stands in for missing objects on reads
EXPECTED_CATALOG = "ldiv_expected"  # where the expected schema is derived (detached right after)
# A catalog attached to one connection is seen by every connection to the same DuckDB instance (one per
# file and process): each scratch catalog gets a name of its own, so that threads opening one file (or
# deriving the expected schema at once) never meet each other's
_SCRATCH_NO = itertools.count(1)


def _scratch_name(base: str) -> str:
    return f"{base}_{next(_SCRATCH_NO)}"


SCHEMA = "ldiv"

# One catalog query: the ldiv schema itself, its tables' columns (in order) and its sequences.
_SNAPSHOT = """
SELECT 'schema' AS kind, schema_name AS name, NULL AS col, NULL AS type, 0 AS pos
FROM duckdb_schemas() WHERE database_name = current_database() AND schema_name = 'ldiv'
UNION ALL
SELECT 'table', table_name, column_name, data_type, column_index
FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'ldiv'
UNION ALL
SELECT 'sequence', sequence_name, NULL, NULL, 0
FROM duckdb_sequences() WHERE database_name = current_database() AND schema_name = 'ldiv'
ORDER BY kind, name, pos
"""

_TABLE_DDL = "SELECT table_name, sql FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'ldiv'"

Columns = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Snapshot:
    """The ldiv objects of one database: tables with their (column, type) lists, and sequences."""

    has_schema: bool
    tables: Mapping[str, Columns]
    sequences: frozenset[str]

    def objects(self) -> set[str]:
        return set(self.tables) | set(self.sequences)


def snapshot(db: SchemaDatabase) -> Snapshot:
    return _snapshot_of(db.raw_rows(_SNAPSHOT))


def _snapshot_of(rows: Sequence[Sequence[Any]]) -> Snapshot:
    tables: dict[str, list[tuple[str, str]]] = {}
    sequences: set[str] = set()
    has_schema = False
    for kind, name, col, typ, _ in rows:
        if kind == "schema":
            has_schema = True
        elif kind == "sequence":
            sequences.add(str(name))
        else:
            tables.setdefault(str(name), []).append((str(col), str(typ)))
    return Snapshot(has_schema, {k: tuple(v) for k, v in tables.items()}, frozenset(sequences))


@dataclass(frozen=True)
class Expected:
    """The schema after each shipped migration: ``after[v]`` (v = 0 is the bookkeeping table alone),
    the version that first creates each object, and the CREATE statement of each table."""

    after: tuple[Snapshot, ...]
    created_in: Mapping[str, int]
    table_ddl: Mapping[str, str]
    names: Mapping[int, str]

    @property
    def latest(self) -> int:
        return len(self.after) - 1


_CACHE: list[Expected] = []
_DERIVING = threading.Lock()  # one thread derives the expected schema; the others wait for it


def expected(db: SchemaDatabase) -> Expected:
    """The expected schema, derived once per process in a scratch catalog of ``db``."""
    if _CACHE:
        return _CACHE[0]
    with _DERIVING:
        if not _CACHE:
            _CACHE.append(_derive(db))
    return _CACHE[0]


def _derive(db: SchemaDatabase) -> Expected:
    """From the rows kept in the user's cache for these migrations and this DuckDB (:mod:`.kept`), or
    derived in a scratch catalog (and kept)."""
    migrations = shipped_migrations()
    version = str(db.raw_rows("SELECT version()")[0][0])
    texts = [f"{m.version:04d}_{m.name}\n{m.sql}" for m in migrations]
    path = kept.entry([version, _SNAPSHOT, _TABLE_DDL, BOOKKEEPING, *texts])
    found = kept.read(path)
    if found is None or len(found[0]) != len(migrations) + 1:
        found = _derived_rows(db)
        kept.write(path, *found)
    snapshots, ddl_rows = found
    after = [_snapshot_of(rows) for rows in snapshots]
    created_in = dict.fromkeys(after[0].objects(), 0)
    names = {0: "bookkeeping"}
    for mig, snap in zip(migrations, after[1:], strict=True):
        names[mig.version] = mig.name
        for obj in snap.objects():
            created_in.setdefault(obj, mig.version)
    ddl = {str(n): str(s) for n, s in ddl_rows}
    return Expected(tuple(after), created_in, ddl, names)


def _derived_rows(db: SchemaDatabase) -> tuple[list[list[list[Any]]], list[list[Any]]]:
    """The snapshot query's rows after the bookkeeping table and after each shipped migration, applied
    to a scratch catalog, and the tables' DDL rows at the end."""
    with db.scratch_catalog(_scratch_name(EXPECTED_CATALOG)):
        db.execute_script("ldiv bookkeeping", BOOKKEEPING)
        snapshots = [[list(r) for r in db.raw_rows(_SNAPSHOT)]]
        for mig in shipped_migrations():
            db.execute_script(f"migration {mig.version:04d}_{mig.name}", mig.sql)
            snapshots.append([list(r) for r in db.raw_rows(_SNAPSHOT)])
        ddl = [list(r) for r in db.raw_rows(_TABLE_DDL)]
    return snapshots, ddl


@dataclass(frozen=True)
class Finding:
    """One difference between the file and the shipped migrations."""

    kind: str  # missing | different | unrecorded | changed (checksum) | newer (not shipped)
    what: str  # table | sequence | migration
    name: str  # ldiv.<object>, or the migration NNNN_name
    version: int  # the migration that creates the object (0: bookkeeping)
    detail: str

    def __str__(self) -> str:
        return f"{self.name}: {self.detail}"


@dataclass
class State:
    """What the file holds: its snapshot, the migrations recorded and applied (the version its objects
    say it is at), and every finding against the expected schema at that version."""

    actual: Snapshot
    recorded: dict[int, tuple[str, str]]
    version: int
    findings: list[Finding] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        return not self.findings


def _column_difference(want: Columns, have: Columns) -> str:
    w, h = dict(want), dict(have)
    parts = []
    if gone := [c for c in w if c not in h]:
        parts.append("missing column(s) " + ", ".join(gone))
    if extra := [c for c in h if c not in w]:
        parts.append("unexpected column(s) " + ", ".join(extra))
    if changed := [f"{c} is {h[c]} (expected {w[c]})" for c in w if c in h and h[c] != w[c]]:
        parts.append("; ".join(changed))
    return "; ".join(parts) if parts else "columns in another order"


def inspect(db: SchemaDatabase) -> State:
    """Compare the file with the shipped migrations: every difference is a finding (a migration this
    ldiv_db does not ship, or one whose checksum differs, included)."""
    exp = expected(db)
    actual = snapshot(db)
    recorded = applied_migrations(db) if "schema_migration" in actual.tables else {}
    problems = migration_problems(str(db.path or "this database"), recorded)
    newer = {v for kind, v, _ in problems if kind == "newer"}
    present_versions = [exp.created_in[o] for o in actual.objects() if o in exp.created_in]
    version = max([*(set(recorded) - newer), *present_versions], default=-1)
    state = State(actual, recorded, version)
    for kind, v, err in problems:  # listed by doctor; refused by every other open (prepare)
        label = f"migration {v:04d}_{recorded[v][0]}"
        shown = "recorded with another checksum than the shipped file's " + err.message.rsplit("file ", 1)[-1]
        detail = shown if kind == "changed" else "written by a newer ldiv_db"
        state.findings.append(Finding(kind, "migration", label, v, detail))
    if version < 0:  # no ldiv object at all: a file ldiv_db has not written to
        return state
    want = exp.after[version]
    for name, cols in sorted(want.tables.items()):
        v = exp.created_in[name]
        if name not in actual.tables:
            state.findings.append(Finding("missing", "table", f"ldiv.{name}", v, "the table is missing"))
        elif actual.tables[name] != cols:
            detail = _column_difference(cols, actual.tables[name])
            state.findings.append(Finding("different", "table", f"ldiv.{name}", v, detail))
    for name in sorted(want.sequences - actual.sequences):
        v = exp.created_in[name]
        state.findings.append(Finding("missing", "sequence", f"ldiv.{name}", v, "the sequence is missing"))
    for v in range(1, version + 1):
        if v not in recorded:
            state.findings.append(
                Finding(
                    "unrecorded",
                    "migration",
                    f"migration {v:04d}_{exp.names[v]}",
                    v,
                    "not recorded in ldiv.schema_migration, though its objects (or later ones) are present",
                )
            )
    return state


def damage_error(db: SchemaDatabase, state: State) -> MigrationError:
    where = db.path or "this database"
    shown = "; ".join(str(f) for f in state.findings[:6])
    more = f" (and {len(state.findings) - 6} more)" if len(state.findings) > 6 else ""
    target = db.path or "DB"
    return MigrationError(
        f"the ldiv schema of {where} is damaged: {shown}{more}",
        f"nothing was written; see `ldiv doctor {target}` and restore what can be restored with "
        f"`ldiv doctor {target} --repair` (or restore the file from a backup)",
    )


def prepare(db: SchemaDatabase, mode: str) -> None:
    """The open-time rule (see the module docstring)."""
    if not db.embedded:
        prepare_server(db, mode)
        return
    state = inspect(db)
    if any(f.kind in ("newer", "changed") for f in state.findings):
        verify_applied(db, state.recorded)  # raises the migration's own error
    if not state.healthy:
        raise damage_error(db, state)
    if mode == "write":
        apply_migrations(db)
        mark_stale_runs(db)
        return
    if state.version < expected(db).latest:
        provide_missing(db, state)


def provide_missing(db: SchemaDatabase, state: State) -> None:
    """Reads of a file without (all of) the ldiv objects: an in-memory catalog holds the whole schema,
    empty, and sits on the search path behind the file's own ``ldiv`` schema (DuckDB resolves
    ``ldiv.x`` in the first search-path entry whose schema ``ldiv`` has ``x``)."""
    current = str(db.raw_rows("SELECT current_database()")[0][0])
    empty = _scratch_name(EMPTY_CATALOG)
    with db.scratch_catalog(empty, keep=True):
        for i, sql in enumerate([BOOKKEEPING, *(m.sql for m in shipped_migrations())]):
            db.execute_script(f"ldiv schema stand-in {i}", sql)
    entries = [f"{_q(current)}.main"]
    if state.actual.has_schema:
        entries.append(f"{_q(current)}.{SCHEMA}")
    entries.append(f"{empty}.{SCHEMA}")
    db.set_search_path(",".join(entries))


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
