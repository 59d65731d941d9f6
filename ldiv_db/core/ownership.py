"""What ldiv_db may create, replace or drop in the user's database: the one place that decides.

The rule (README "Safety"; DESIGN §6):

* ldiv_db drops or replaces a table only when it recorded the table as written by a release
  (``ldiv.release_table``, one row per table a release owns: Decomposition+ owns three) and the table is
  still as that release left it (row count and content hash), or when ``ldiv load --replace`` names the
  table explicitly (a base table outside the ``ldiv`` schemas);
* a release replaces only its OWN tables: a table of another release or stream is refused, as are
  source tables, user tables, views and anything in the schemas ``ldiv`` and ``ldiv_work``, which are
  closed to user writes (load, --output, hierarchy commands, job files);
* a new table is created only in an existing schema of the working database (never in an attached
  database), and this is checked before any work is done.

Writers call :func:`check_release_targets` / :func:`check_load_target` up front (a clear error before
the algorithm runs), then, inside their transaction, :func:`drop_for_release` / :func:`drop_for_load`
(which check again and are the only callers of ``sql/ownership/drop_table.sql``) and
:func:`record_release_tables` once the new tables are written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..db import ldiv_schema_name
from ..errors import BadInput
from ..sqlgen.render import TableRef, render
from .catalog import hidden_by_temporary, table_at

if TYPE_CHECKING:
    from ..db import Database

OTHER_NAME = "choose another --output name (output = ... in a job file)"


@dataclass(frozen=True)
class Existing:
    """A table or view that a write target names, spelled as the catalog spells it."""

    ref: TableRef
    kind: str

    @property
    def is_view(self) -> bool:
        return self.kind.upper() != "BASE TABLE"


@dataclass(frozen=True)
class Owner:
    """The release that recorded a table as its own."""

    release: TableRef
    release_id: int
    algorithm: str | None
    rows: int | None
    digest: str | None

    def describe(self) -> str:
        algo = f", {self.algorithm}" if self.algorithm else ""
        return f"{self.release.display()} (release {self.release_id}{algo})"


# ---------------------------------------------------------------------------- looking things up
def existing(db: Database, ref: TableRef) -> Existing | None:
    """The table or view a write target names, or None. One that a temporary object of the connection
    hides is refused: every statement naming it would read, replace or drop the temporary one."""
    key = {"schema": ref.schema or "main", "name": ref.name}
    if db.temp_catalog is not None and db.rows(render("catalog/temp_shadow.sql", key)):
        raise hidden_by_temporary(TableRef(ref.name, key["schema"]), db.temp_catalog)
    rows = db.rows(render("catalog/table_info.sql", key))
    if not rows:
        return None
    schema, name, kind = (str(x) for x in rows[0])
    return Existing(TableRef(name, schema), kind)


def owner(db: Database, ref: TableRef) -> Owner | None:
    rows = db.records(render("ownership/owner.sql", {"schema": ref.schema or "main", "name": ref.name}))
    if not rows:
        return None
    r = rows[0]
    return Owner(
        TableRef(str(r["release_name"]), str(r["release_schema"])),
        int(r["release_id"]),
        None if r["algorithm"] is None else str(r["algorithm"]),
        None if r["rows"] is None else int(r["rows"]),
        None if r["digest"] is None else str(r["digest"]),
    )


def fingerprint(db: Database, ref: TableRef, *, like: str | None = None) -> tuple[int, str]:
    """A table's row count and digest: the rows' hashes, then the column names in order (a row hash
    does not see them, and a column renamed is a table changed). ``like``: a digest recorded earlier,
    which this one is compared with; one recorded before PostgreSQL's record-hash digests (prefix
    ``r:``), or before the column names were part of it, is re-made the same way."""
    legacy = like is not None and not like.startswith("r:")
    n, digest = db.one(render("ownership/digest.sql", target=ref, legacy=legacy))
    if like is not None and COLUMNS not in like:
        return int(n), str(digest)
    return int(n), f"{digest}{COLUMNS}{_column_names_hash(db, ref)}"


COLUMNS = ";columns:"


def _column_names_hash(db: Database, ref: TableRef) -> str:

    names = [c.name for c in sorted(table_at(db, ref).columns, key=lambda c: c.position)]
    return hashlib.sha256("\x1f".join(names).encode()).hexdigest()[:16]


def _same(a: TableRef, b: TableRef) -> bool:
    return [p.lower() for p in a.parts] == [p.lower() for p in b.parts]


def _in_ldiv_schema(ref: TableRef) -> bool:

    return ldiv_schema_name(ref.schema or "main")


def what_is(db: Database, found: Existing) -> str:
    """A phrase saying what a table that ldiv_db will not touch is, for the error message."""
    ref = found.ref
    if _in_ldiv_schema(ref):
        return _ldiv_phrase(ref)
    if found.is_view:
        kind = found.kind.lower()  # a view, a materialized view, a foreign table
        return f"a {kind if 'view' in kind else kind + ' table'} (ldiv_db did not write it)"
    own = owner(db, ref)
    if own is not None:
        return f"a table of the release {own.describe()}"
    sources = [str(r[0]) for r in db.rows(render("ownership/sources.sql", {"name": ref.display()}))]
    if sources:
        return f"a source table (of release {', '.join(sources)})"
    return "a user table (ldiv_db did not write it)"


def _ldiv_phrase(ref: TableRef) -> str:
    if (ref.schema or "").lower() == "ldiv":
        return "in the ldiv schema, which holds ldiv_db's audit records and is closed to user writes"
    return "in ldiv_db's work schema ldiv_work, which is closed to user writes"


# ---------------------------------------------------------------------------- where a table may go
def check_schema(db: Database, ref: TableRef, role: str) -> TableRef:
    """The target's schema must be an existing schema of the working database, outside ``ldiv``;
    returns the target with the schema spelled as the catalog spells it."""
    schema = ref.schema or "main"
    if _in_ldiv_schema(ref):
        raise BadInput(
            f"cannot write {role} {ref.display()}: it is {_ldiv_phrase(ref)}",
            "write into main or a schema of your own",
        )
    found, attached, read_only = db.one(render("ownership/schema_info.sql", {"schema": schema}))
    if found is None:
        if attached:
            ro = "read-only " if read_only else ""
            raise BadInput(
                f"cannot write {role} {ref.display()}: {schema} is an attached {ro}database, "
                "and ldiv_db writes only into the working database",
                "write into main (or a schema of the working database); --attach is for reading sources",
            )
        raise BadInput(
            f"cannot write {role} {ref.display()}: the schema {schema!r} does not exist in this database",
            f'create it first (CREATE SCHEMA "{schema}") or write into main',
        )
    return TableRef(ref.name, str(found))


# ---------------------------------------------------------------------------- releases
def check_release_targets(
    db: Database, release: TableRef, tables: Sequence[TableRef], *, replace: bool, stream: bool = False
) -> None:
    """Before any work: may the release ``release`` write ``tables``? Refuses by name otherwise."""
    check_schema(db, release, "the release")
    for ref in tables:
        db.refuse_table_name(ref, release)
    for ref in tables:
        _may_write_release_table(db, release, ref, replace=replace, stream=stream)
    _same_shape(db, release, tables)


def _same_shape(db: Database, release: TableRef, tables: Sequence[TableRef]) -> None:
    """A release name keeps its shape: replacing it must rewrite every table it owns (a one-table
    release cannot take the name of a Decomposition+ stream, nor the other way round)."""
    recorded = db.rows(
        render(
            "ownership/release_tables.sql",
            {"release_schema": release.schema or "main", "release_name": release.name},
        )
    )
    new = {(t.schema or "main").lower() + "." + t.name.lower() for t in tables}
    for schema, name, release_id in recorded:
        ref = TableRef(str(name), str(schema))
        if (ref.schema or "").lower() + "." + ref.name.lower() not in new and existing(db, ref) is not None:
            raise BadInput(
                f"cannot write the release {release.display()}: that name belongs to release {release_id}, "
                f"whose table {ref.display()} this release would not replace (another algorithm's shape)",
                OTHER_NAME,
            )


def _may_write_release_table(
    db: Database,
    release: TableRef,
    ref: TableRef,
    *,
    replace: bool,
    content: bool = True,
    stream: bool = False,
) -> Existing | None:
    """May the release ``release`` write ``ref``? ``stream``: the next release of a Decomposition+ stream,
    which replaces its previous release's tables by design (the continuous-release rule checks it), also
    when that release is published."""
    found = existing(db, ref)
    if found is None:
        return None
    own = owner(db, found.ref) if not found.is_view else None
    if own is None or not _same(own.release, release):
        raise BadInput(
            f"cannot write the release {release.display()}: {found.ref.display()} already exists and is "
            f"{what_is(db, found)}; ldiv_db replaces only its own releases",
            OTHER_NAME,
        )
    changed = _changed(db, found.ref, own) if content else None
    if changed:
        raise BadInput(
            f"cannot replace {found.ref.display()}: ldiv_db wrote it as release {own.release_id} but it has "
            f"changed since ({changed}); ldiv_db replaces only its own releases, as it wrote them",
            OTHER_NAME + ", or drop the table yourself if you no longer need it",
        )
    if publication_state(db, own.release_id) == "published" and not stream:
        raise BadInput(
            f"cannot replace {found.ref.display()}: it is the published release {own.release_id}, which "
            "has left the database; ldiv_db keeps a published release as the record of what was "
            "published, and checks every later publication of its source against it",
            OTHER_NAME,
        )
    if not replace:
        raise BadInput(
            f"the release {release.display()} already exists ({found.ref.display()}, written by release "
            f"{own.release_id}{', ' + own.algorithm if own.algorithm else ''})",
            "pass --replace to replace it (atomically: the old release stays until the new one is written)",
        )
    return found


def publication_state(db: Database, release_id: int) -> str:
    """'draft', 'candidate' or 'published' (migration 0004; :mod:`ldiv_db.pipeline.publication`)."""
    return str(db.scalar(render("publication/state.sql", {"release_id": release_id})))


def _changed(db: Database, ref: TableRef, own: Owner) -> str | None:
    if own.rows is None and own.digest is None:
        return None
    n, digest = fingerprint(db, ref, like=own.digest)
    if own.rows is not None and n != own.rows:
        return f"{own.rows} rows then, {n} now"
    if own.digest is not None and digest != own.digest:
        return "its content differs"
    return None


def drop_for_release(
    db: Database,
    release: TableRef,
    tables: Sequence[TableRef],
    *,
    replace: bool,
    private: Sequence[TableRef] = (),
    stream: bool = False,
) -> None:
    """Inside the release's transaction: drop the release's previous tables (checked again: without
    ``replace`` an existing table is refused), and its private tables in schema ``ldiv``
    (Decomposition+'s kept-back rows). Their content was verified by :func:`check_release_targets`
    before the run, which every writer calls first (and no other process can write the file while
    ldiv_db holds it open), so it is not hashed a second time."""
    for ref in tables:
        found = _may_write_release_table(db, release, ref, replace=replace, content=False, stream=stream)
        if found is not None:
            db.run(render("ownership/drop_table.sql", target=found.ref))
            db.run(render("ownership/forget.sql", {"schema": found.ref.schema, "name": found.ref.name}))
    for ref in private:
        if (ref.schema or "") != "ldiv":
            raise BadInput(f"{ref.display()} is not a private table of ldiv_db")
        found = existing(db, ref)
        if found is not None:
            db.run(render("ownership/drop_table.sql", target=found.ref))


def check_may_replace(
    db: Database, release: TableRef, tables: Sequence[TableRef], *, replace: bool, stream: bool = False
) -> None:
    """The checks of :func:`drop_for_release` without the drop: an engine that publishes through
    staging (:mod:`ldiv_db.pipeline.staged`) replaces the previous tables by a rename after verifying."""
    for ref in tables:
        _may_write_release_table(db, release, ref, replace=replace, content=False, stream=stream)


def record_release_tables(
    db: Database,
    release: TableRef,
    release_id: int,
    tables: Sequence[TableRef],
    taken: Mapping[TableRef, tuple[int, str]] | None = None,
) -> None:
    """Inside the release's transaction, once written: the release owns ``tables`` as they are now
    (``taken``: fingerprints already taken of them in this transaction, after they were written)."""
    for ref in tables:
        n, digest = (taken or {}).get(ref) or fingerprint(db, ref)
        db.run(render("ownership/forget.sql", {"schema": ref.schema or "main", "name": ref.name}))
        db.run(
            render(
                "ownership/record.sql",
                {
                    "schema": ref.schema or "main",
                    "name": ref.name,
                    "release_schema": release.schema or "main",
                    "release_name": release.name,
                    "release_id": release_id,
                    "rows": n,
                    "digest": digest,
                },
            )
        )


# ---------------------------------------------------------------------------- derived tables
def check_new_table(db: Database, ref: TableRef, role: str, flag: str) -> TableRef:
    """A table ldiv_db derives for the user (``ldiv risk --rows-out``) is created new, in an existing
    schema of the working database, and never over an existing table or view: it records no release, so
    nothing would let a later run tell it from the user's own table. Returns the target as the catalog
    spells its schema."""
    target = check_schema(db, ref, role)
    found = existing(db, target)
    if found is not None:
        what = what_is(db, found)
        kind = "" if what.startswith("a user table") else f" ({what})"  # an earlier --rows-out is one too
        raise BadInput(
            f"cannot write {role} {found.ref.display()}: a table of that name already exists{kind}; "
            "ldiv_db writes it only as a new table and never replaces a table it recorded as no release",
            f"choose another {flag} name, or drop the old table yourself if you no longer need it",
        )
    return target


# ---------------------------------------------------------------------------- ldiv load
def check_load_target(db: Database, ref: TableRef, *, replace: bool) -> TableRef:
    """Before loading: the table ``ldiv load`` creates, or replaces when ``--replace`` names it."""
    target = check_schema(db, ref, "the table")
    found = existing(db, target)
    if found is None:
        return target
    if found.is_view:
        raise BadInput(
            f"cannot load into {found.ref.display()}: it is {what_is(db, found)}",
            "ldiv load replaces only tables; choose another --table name",
        )
    if not replace:
        raise BadInput(
            f"table {found.ref.display()} already exists ({what_is(db, found)})",
            "pass --replace to overwrite it, or choose another --table name",
        )
    return found.ref


def drop_for_load(db: Database, ref: TableRef) -> None:
    """Inside the load's transaction: drop the table ``ldiv load --replace`` names (checked again). A
    release table loaded over is no longer ldiv_db's: its ownership record goes."""
    target = check_load_target(db, ref, replace=True)
    if existing(db, target) is not None:
        db.run(render("ownership/drop_table.sql", target=target))
        db.run(render("ownership/forget.sql", {"schema": target.schema or "main", "name": target.name}))


# ---------------------------------------------------------------------------- a job's staged load
JOB_STAGE = "__ldiv_job_load"


def job_stage(db: Database, target: TableRef) -> TableRef:
    """Where a job loads its file before its transaction (:func:`ldiv_db.commands.job.run_job`): the table
    ``<table>__ldiv_job_load`` beside ``target`` (a rename cannot change a table's schema). The name is
    ldiv_db's own: one a killed job left behind is dropped here."""
    stage = TableRef(target.name + JOB_STAGE, target.schema, target.catalog)
    drop_job_stage(db, stage)
    return stage


def drop_job_stage(db: Database, stage: TableRef) -> None:
    """Drop a job's staged load (after its job was refused, or left by a killed one), if it is there."""
    found = existing(db, stage)
    if found is not None and not found.is_view and found.ref.name.endswith(JOB_STAGE):
        db.run(render("ownership/drop_table.sql", target=found.ref))


def swap_in_job_stage(db: Database, stage: TableRef, target: TableRef) -> None:
    """Inside the job's transaction: the table the job reloads is dropped (as ``ldiv load --replace``
    would) and the staged load takes its name. A rename keeps the rows and their committed row ids."""
    drop_for_load(db, target)
    db.run(render("ownership/rename_table.sql", {}, source=stage, new_name=target.name))


# ---------------------------------------------------------------------------- records kept per table
def refuse_ldiv_table(ref: TableRef, action: str) -> None:
    """Hierarchy and category commands store records about a data table; never about ldiv's own."""
    if _in_ldiv_schema(ref):
        raise BadInput(
            f"cannot {action} {ref.display()}: it is {_ldiv_phrase(ref)}",
            "name a data table (ldiv_db keeps its records in the ldiv schema)",
        )
