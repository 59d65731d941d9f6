"""The staged writer: how :mod:`ldiv_db.pipeline.publish` publishes on an engine without multi-statement
transactions (``transactional = False``: Spark). On DuckDB and PostgreSQL the same steps run inside one
transaction instead; the steps themselves (write, reconcile, verify, link, promises, record) are
:mod:`.publish`'s, in both cases.

For a release of the tables ``T`` (each ``<name>``) of run ``R``:

1. **recover** what a killed earlier publish of these tables left (:func:`recover`);
2. **build**: write every table into a staging table ``<name>__ldiv_stage_R`` beside it, reconcile and
   verify there (and the private row link under the id the record will get); any failure drops the
   staging tables and raises: no release name was touched;
3. **aside**: each existing previous table ``<name>`` is renamed ``<name>__ldiv_prev_R``;
4. **publish**: each staging table is renamed ``<name>`` (one catalog operation per table);
5. **record** the release in ``ldiv`` (the last step, the commit point: a Ctrl-C is held across it and
   raised once the release stands); if recording fails, the new tables are renamed back to staging (and
   dropped) and the previous ones to ``<name>``;
6. the previous tables are dropped.

The guarantee, exactly: a table that failed verification never bears a release's name, and every
failure that Python sees (an error, Ctrl-C) leaves the previous release in place, whole. A process
killed outright (no cleanup runs) between steps 3 and 5 leaves either no table or an unrecorded,
verified table under ``<name>``, and the previous release whole under ``<name>__ldiv_prev_R``; the next
write of the same release runs :func:`recover` first, which puts the previous release back (the record
of run ``R`` tells whether step 5 completed) and drops leftover staging tables; a stream's next release
runs it before reading its previous release (:func:`ldiv_db.pipeline.publish.recover_tables`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from ..sqlgen.render import TableRef
from ..util import interrupts

T = TypeVar("T")
R = TypeVar("R")


@runtime_checkable
class StagingEngine(Protocol):
    """What publishing through staging needs of an engine (:class:`ldiv_db.db.spark.engine.SparkDatabase`)."""

    default_schema: str

    def exists(self, ref: TableRef) -> bool: ...
    def rename(self, old: TableRef, new: TableRef) -> None: ...
    def drop_table(self, ref: TableRef) -> None: ...
    def table_names(self, schema: str) -> list[str]: ...


STAGE = "__ldiv_stage_"
PREVIOUS = "__ldiv_prev_"
POINTS = ("verify", "aside", "publish", "record")
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


def _never(run_id: int) -> bool:
    return False


def publish_staged(
    db: StagingEngine,
    tables: Sequence[TableRef],
    run_id: int,
    *,
    build: Callable[[Mapping[TableRef, TableRef]], T],
    record: Callable[[T], R],
    recorded: Callable[[int], bool] = _never,
) -> R:
    """Steps 1-6 of the module docstring. ``build`` writes each table to the staging table it is mapped
    to and raises when they fail their checks; ``record`` writes the ldiv records (the tables then bear
    their names); ``recorded(run)`` tells :func:`recover` whether run ``run`` recorded its release."""
    for out in tables:
        recover(db, out, recorded)
    stages = {out: staging_ref(out, run_id) for out in tables}
    try:
        built = build(stages)
        _seeded_kill("verify")
    except BaseException:
        for stage in stages.values():
            _drop(db, stage)
        raise
    aside: list[TableRef] = []
    published: list[TableRef] = []

    def undo() -> None:
        for out in published:
            db.rename(out, stages[out])
        for out in aside:
            db.rename(previous_ref(out, run_id), out)
        for stage in stages.values():
            _drop(db, stage)

    try:
        for out in tables:
            if db.exists(out):
                db.rename(out, previous_ref(out, run_id))
                aside.append(out)
        _seeded_kill("aside")
        for out in tables:
            db.rename(stages[out], out)
            published.append(out)
        _seeded_kill("publish")
    except BaseException:
        with contextlib.suppress(Exception):
            undo()
        raise
    with interrupts.deferred():  # the commit point: a Ctrl-C meanwhile comes after it, never undoes it
        try:
            result = record(built)
        except BaseException:
            with contextlib.suppress(Exception):
                undo()
            raise
        _seeded_kill("record")
        for out in aside:
            _drop(db, previous_ref(out, run_id))
    return result


def recover(db: StagingEngine, out: TableRef, recorded: Callable[[int], bool] = _never) -> list[str]:
    """What a killed publish of ``out`` left: with a previous release under ``<name>__ldiv_prev_<run>``,
    ``<name>`` is either missing or run ``<run>``'s table; unless ``recorded(run)``, that table is dropped
    and the previous one renamed back. Staging tables, and previous tables of recorded runs, are dropped.
    Returns what was done (for the log)."""
    done: list[str] = []
    # catalogs may fold case (a Hive metastore stores lower case): compare folded
    prefix_prev, prefix_stage = (out.name + PREVIOUS).lower(), (out.name + STAGE).lower()
    names = [n.lower() for n in db.table_names(out.schema or db.default_schema)]
    prevs = sorted((n for n in names if n.startswith(prefix_prev)), key=lambda n: _run_of(n, prefix_prev))
    if prevs:
        latest = prevs.pop()
        present = out.name.lower() in names
        if not present or not recorded(_run_of(latest, prefix_prev)):
            if present:
                db.drop_table(out)
                done.append(f"dropped the unrecorded {out.display()}")
            db.rename(TableRef(latest, out.schema, out.catalog), out)
            done.append(f"restored {out.display()} from {latest}")
        else:
            prevs.append(latest)
    for name in prevs + sorted(n for n in names if n.startswith(prefix_stage)):
        _drop(db, TableRef(name, out.schema, out.catalog))
        done.append(f"dropped {name}")
    return done


def _run_of(name: str, prefix: str) -> int:
    tail = name[len(prefix) :]
    return int(tail) if tail.isdigit() else -1


def _drop(db: StagingEngine, ref: TableRef) -> None:
    with contextlib.suppress(Exception):
        db.drop_table(ref)
