"""THE release writer: every release of every algorithm — one table or several, a first release or a
stream's next one — is published here, in ONE transaction:

0. (before the transaction) give the release's groups their published, opaque ids (:mod:`.opaque`);
1. drop the release's previous tables (ownership rules, :mod:`ldiv_db.core.ownership`);
2. write the tables (the release's statements);
3. reconcile the written tables with the input: rows in = published + withheld, and every count the
   release defines — a release that does not reconcile is an :class:`InternalError`;
4. verify the privacy model on the written tables (and measure them);
5. record ``ldiv.release``, the private link ``ldiv.release_row``, table ownership, the supersede link and
   (a stream release) ``ldiv.stream``;
6. check what the algorithm promised beyond the model on the recorded release;
7. refuse a release that fails 4 or 6: the transaction rolls back, nothing is published and a previous
   release of the same name stays intact.

The empty-release rule (:func:`ldiv_db.verify.guarantees.refuse_empty`) runs before the transaction.

An engine without multi-statement transactions (``db.transactional`` False: Spark) runs the same steps
2-7 through the staged writer (:mod:`.staged`) instead of a transaction: the release's tables are written
to staging tables and reconciled, verified and checked there (the private link under the id its record
will get), then renamed to their names and recorded last (:func:`_staged`). Step 1 becomes the ownership
check alone (the previous tables are renamed aside, then dropped, by the staged writer). A stream's
release stages its private tables too (:meth:`Release.staged_tables`) and enters what a transaction
would have written with its tables once it is recorded (:meth:`Release.after_record`); a failure removes
the private link and logs written under the reserved id (:meth:`Release.unlink`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..algorithms.base import Reconciled, Release, Verdict
from ..core import ownership
from ..db import Database
from ..errors import InternalError, PrivacyViolation
from ..sqlgen.render import TableRef, render
from ..util.progress import Progress
from . import opaque
from . import stream as streams
from .result import AnonymizeResult
from .staged import StagingEngine, publish_staged, recover

BUG_HINT = "this is a bug in the algorithm; please report it with the run id"


@dataclass(frozen=True)
class Context:
    """How a release is published: its run, whether it may replace a release of the same name, the run's
    seed (:mod:`.opaque`), the empty-release rule ``refuse_empty(published, received)`` (None: the rule
    does not apply) and ``end_run(metrics)``, which records the run's end (:meth:`ldiv_db.schema.runs.Run.end`)
    with the release's records: the audit records after the run's start are written together, at the end."""

    run_id: int
    replace: bool
    progress: Progress
    seed: int
    refuse_empty: Callable[[int, int], None] | None = None
    end_run: Callable[[dict[str, Any]], None] | None = None  # the run's end, written with the release


def _jsonable(x: Any) -> str:
    return json.dumps(x, default=str, sort_keys=True)


def publish(db: Database, release: Release, ctx: Context) -> AnonymizeResult:
    """Publish ``release`` (see the module docstring); returns what was published."""
    if release.empty is not None and ctx.refuse_empty is not None:
        ctx.refuse_empty(*release.empty)
    h, update = release.header, release.stream
    continues = update is not None and update.first_release is not None
    try:
        opaque.publish_ids(db, release, ctx.seed)  # before anything reads or writes a group id
        release.prepare(db)
        if db.transactional:
            with db.transaction():
                if update is not None and not continues and ctx.replace:
                    streams.forget(db, h.name)
                ownership.drop_for_release(
                    db,
                    release.out,
                    release.tables,
                    replace=ctx.replace or continues,
                    private=release.private,
                    stream=continues,
                )
                release_id, rec, verdict = _steps(db, release, ctx, reserved=None)
                _end_run(ctx, verdict)  # committed with the release, or rolled back with it
                db.on_commit(_committed(h.name, release_id, ctx.run_id))
        else:
            release_id, rec, verdict = _staged(db, release, ctx, continues)
            _end_run(ctx, verdict)  # right after the release's record, the staged commit point
    finally:
        release.finish()
    return AnonymizeResult(
        run_id=ctx.run_id,
        release_id=release_id,
        algorithm=h.algorithm,
        model=h.model,
        model_params=h.model_params,
        l=h.shown_l,
        rows_in=rec.rows_in,
        rows_published=rec.published,
        rows_with_suppressed_cells=verdict.rows_with_suppressed_cells,
        rows_deleted=verdict.rows_deleted,
        classes=verdict.groups,
        seconds=0.0,
        queries=0,
        output=h.output,
        verified=verdict.verified,
        metrics=verdict.metrics,
        details=verdict.details,
        verification=verdict.verification,
    )


def _steps(
    db: Database, release: Release, ctx: Context, *, reserved: int | None
) -> tuple[int, Reconciled, Verdict]:
    """Steps 2-7 of the module docstring on the tables the release writes (the published ones, or the
    staging tables of :func:`_staged`). ``reserved``: the staged writer's id for the release, recorded
    later (:func:`_record_release`); None records it here."""
    release.write(db)
    rec = release.reconcile(db)
    refuse_unreconciled(rec)
    verdict = release.verify(db, rec)
    ctx.progress.update(4, 5, "recording")
    release_id = _record_release(db, release, ctx.run_id, rec, verdict) if reserved is None else reserved
    release.link(db, release_id)
    broken = release.promises(db, release_id, verdict)
    if not verdict.verified:
        raise PrivacyViolation(
            f"the written release violates {verdict.violation}; nothing was published", BUG_HINT
        )
    if broken:
        raise PrivacyViolation(
            "the written release breaks what the run promised: "
            + "; ".join(broken)
            + "; nothing was published",
            BUG_HINT,
        )
    return release_id, rec, verdict


def _staged(db: Database, release: Release, ctx: Context, continues: bool) -> tuple[int, Reconciled, Verdict]:
    """The same steps on an engine without transactions (:mod:`.staged`): written, reconciled and
    verified in staging tables, with the private row link under the id the record will get; published by
    rename; recorded last."""
    if not isinstance(db, StagingEngine):
        raise InternalError(f"the {db.dialect} engine has neither transactions nor staging renames")

    def recorded(run_id: int) -> bool:
        return _recorded(db, run_id)

    staged = release.staged_tables()
    recover_tables(db, staged)  # a killed earlier publish first, so ownership sees the release it left
    ownership.check_may_replace(
        db, release.out, release.tables, replace=ctx.replace or continues, stream=continues
    )
    # the id to reserve, and whether a run killed before its record left links from it on (one writer
    # per catalog: nothing links rows between this read and the build)
    reserved, linked = (int(v) for v in db.one(render("meta/next_release_id.sql")))

    def unlink() -> None:
        db.run(render("release/forget_rows.sql", {"release_id": reserved}))
        release.unlink(db, reserved)

    def build(stages: Mapping[TableRef, TableRef]) -> tuple[int, Reconciled, Verdict]:
        release.stage(stages)
        if linked >= reserved:
            unlink()  # the link of a run killed before its record
        try:
            return _steps(db, release, ctx, reserved=reserved)
        except BaseException:
            unlink()
            raise

    def record(built: tuple[int, Reconciled, Verdict]) -> tuple[int, Reconciled, Verdict]:
        release.stage({})
        release_id = _record_release(db, release, ctx.run_id, built[1], built[2], replace=ctx.replace)
        if release_id != reserved:
            raise InternalError(
                f"release id {release_id} differs from the reserved {reserved}: another process wrote "
                f"a release into this {db.dialect} catalog meanwhile (one writer per catalog)"
            )
        db.on_commit(_committed(release.header.name, release_id, ctx.run_id))
        return built

    return publish_staged(db, staged, ctx.run_id, build=build, record=record, recorded=recorded)


def _end_run(ctx: Context, verdict: Verdict) -> None:
    if ctx.end_run is not None:
        ctx.end_run(verdict.metrics)


def _committed(name: str, release_id: int, run_id: int) -> str:
    """How a committed release is named when a Ctrl-C is reported after it (the CLI's message)."""
    return f"release {name} (release {release_id}, run {run_id})"


def _recorded(db: Database, run_id: int) -> bool:
    return bool(db.scalar(render("meta/run_recorded.sql", {"run_id": run_id})))


def recover_tables(db: Database, tables: tuple[TableRef, ...]) -> None:
    """On an engine without transactions: put back what a killed publish of ``tables`` left
    (:func:`ldiv_db.pipeline.staged.recover`) — before the release's algorithm reads them (a stream's
    next release reads its previous release and kept-back rows) and again before publishing."""
    if db.transactional or not isinstance(db, StagingEngine):
        return
    for table in tables:
        recover(db, table, lambda run_id: _recorded(db, run_id))


def _record_release(
    db: Database, release: Release, run_id: int, rec: Reconciled, verdict: Verdict, *, replace: bool = False
) -> int:
    """``ldiv.release``, the ownership of the release's tables, the supersede link and a stream's state
    (staged: and what the release left for after its record, :meth:`Release.after_record`)."""
    release_id = _record(db, release, run_id, rec, verdict)
    ownership.record_release_tables(db, release.out, release_id, release.tables, release.fingerprints())
    db.run(render("meta/release_supersede.sql", {"name": release.header.name, "release_id": release_id}))
    release.after_record(db, replace)
    if release.stream is not None:
        streams.save(db, release.header.name, release.stream, release_id)
    return release_id


def refuse_unreconciled(rec: Reconciled) -> None:
    """THE reconciliation rule: every input row is published or withheld, once, and every count the
    release defines matches."""
    problems = list(rec.problems)
    if rec.published + rec.withheld != rec.rows_in:
        problems.insert(0, f"published {rec.published} + withheld {rec.withheld} != {rec.rows_in} rows in")
    if problems:
        raise InternalError("the release does not reconcile with its source: " + "; ".join(problems))


def _record(db: Database, release: Release, run_id: int, rec: Reconciled, verdict: Verdict) -> int:
    h = release.header
    params = {
        "run_id": run_id,
        "name": h.name,
        "source": h.source,
        "algorithm": h.algorithm,
        "model": h.model,
        "l": _jsonable(h.l) if h.l else None,
        "qi": _jsonable(h.qi),
        "sa": _jsonable(h.sa),
        "rows_in": rec.rows_in,
        "rows_published": rec.published,
        # the audit column keeps its name: rows deleted + published rows with suppressed cells (0011)
        "rows_suppressed": verdict.rows_deleted + verdict.rows_with_suppressed_cells,
        "groups": verdict.groups,
        "metrics": _jsonable(verdict.metrics),
        "details": _jsonable(verdict.details),
        "verified": verdict.verified,
        "verification": _jsonable(verdict.verification),
    }
    return int(db.scalar(render("meta/release_insert.sql", params)))
