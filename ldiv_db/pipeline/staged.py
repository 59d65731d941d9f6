"""Publishing a release on an engine without multi-statement transactions (Spark): staging and rename.

On DuckDB and PostgreSQL a release is written, verified and recorded in one transaction. An engine whose
``transactional`` is False publishes through :func:`publish_staged` instead:

1. **write** the release into a staging table ``<name>__ldiv_stage_<run>`` beside it;
2. **verify** and reconcile there (the same checks, on the staging table); a failure drops the staging
   table and raises: the release's name was never touched;
3. **aside**: an existing previous release ``<name>`` is renamed ``<name>__ldiv_prev_<run>``;
4. **publish**: the staging table is renamed ``<name>`` (one catalog operation);
5. **record** the release in ``ldiv`` (the last step); if recording fails, the new table is renamed back
   to staging and the previous one to ``<name>``;
6. the previous release's table is dropped.

The guarantee, exactly: at every moment the table under ``<name>`` is either the previous release,
unchanged, or the new release after it passed verification; a table that failed verification never
bears the name. The one window without a table under ``<name>`` lies between steps 3 and 4 (two
consecutive catalog renames): a process killed there leaves the previous release whole under
``<name>__ldiv_prev_<run>``, and :func:`recover` (run by the next write of the same release) renames it
back. A process killed before step 5 completes leaves no ``ldiv.release`` record, so nothing refers to
the new table; :func:`recover` drops leftover staging tables.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Protocol, TypeVar, runtime_checkable

from ..render import TableRef

T = TypeVar("T")


@runtime_checkable
class StagingEngine(Protocol):
    """What publishing through staging needs of an engine (:class:`ldiv_db.db.spark.SparkDatabase`)."""

    default_schema: str

    def exists(self, ref: TableRef) -> bool: ...
    def rename(self, old: TableRef, new: TableRef) -> None: ...
    def drop_table(self, ref: TableRef) -> None: ...
    def table_names(self, schema: str) -> list[str]: ...


STAGE = "__ldiv_stage_"
PREVIOUS = "__ldiv_prev_"
POINTS = ("write", "verify", "aside", "publish", "record")
KILL_ENV = "LDIV_KILL_AT"  # tests only: a real kill (os._exit) right after the named step


def staging_ref(out: TableRef, run_id: int) -> TableRef:
    return TableRef(f"{out.name}{STAGE}{run_id}", out.schema, out.catalog)


def previous_ref(out: TableRef, run_id: int) -> TableRef:
    return TableRef(f"{out.name}{PREVIOUS}{run_id}", out.schema, out.catalog)


def _seeded_kill(point: str) -> None:
    """The seeded-kill test's hook: ``LDIV_KILL_AT=<step>`` ends the process at once after that step
    (no cleanup runs, as with ``kill -9``)."""
    if os.environ.get(KILL_ENV) == point:
        os._exit(137)


def publish_staged(
    db: StagingEngine,
    out: TableRef,
    run_id: int,
    *,
    write: Callable[[TableRef], None],
    verify: Callable[[TableRef], None],
    record: Callable[[], T],
) -> T:
    """Steps 1-6 of the module docstring; ``write`` creates the given table, ``verify`` raises when the
    written table fails its checks, ``record`` writes the ldiv records (the table is then ``out``)."""
    recover(db, out)
    stage, prev = staging_ref(out, run_id), previous_ref(out, run_id)
    try:
        write(stage)
        _seeded_kill("write")
        verify(stage)
        _seeded_kill("verify")
    except BaseException:
        _drop(db, stage)
        raise
    had_previous = db.exists(out)
    if had_previous:
        db.rename(out, prev)
        _seeded_kill("aside")
    try:
        db.rename(stage, out)
        _seeded_kill("publish")
    except BaseException:
        _drop(db, stage)
        if had_previous:
            db.rename(prev, out)
        raise
    try:
        result = record()
        _seeded_kill("record")
    except BaseException:
        with contextlib.suppress(Exception):
            db.rename(out, stage)
            if had_previous:
                db.rename(prev, out)
            _drop(db, stage)
        raise
    _drop(db, prev)
    return result


def recover(db: StagingEngine, out: TableRef) -> list[str]:
    """What a killed publish of ``out`` left: the previous release under ``<name>__ldiv_prev_<run>``
    while ``<name>`` is missing is renamed back; staging tables, and previous tables whose release was
    published, are dropped. Returns what was done (for the log)."""
    done: list[str] = []
    # catalogs may fold case (a Hive metastore stores lower case): compare folded
    prefix_prev, prefix_stage = (out.name + PREVIOUS).lower(), (out.name + STAGE).lower()
    names = [n.lower() for n in db.table_names(out.schema or db.default_schema)]
    prevs = sorted(n for n in names if n.startswith(prefix_prev))
    if prevs and out.name.lower() not in names:
        db.rename(TableRef(prevs[-1], out.schema, out.catalog), out)
        done.append(f"restored {out.display()} from {prevs[-1]}")
        prevs = prevs[:-1]
    for name in prevs + sorted(n for n in names if n.startswith(prefix_stage)):
        _drop(db, TableRef(name, out.schema, out.catalog))
        done.append(f"dropped {name}")
    return done


def _drop(db: StagingEngine, ref: TableRef) -> None:
    with contextlib.suppress(Exception):
        db.drop_table(ref)
