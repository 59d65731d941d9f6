"""A release on an engine without multi-statement transactions: the anonymize pipeline's steps mapped
onto :func:`ldiv_db.pipeline.staged.publish_staged` (write → reconcile and verify on the staging table →
publish by rename → record last).

The private row links (``ldiv.release_row``) are written under the id the release record will get, before
verification (the declared guarantees read them); if verification fails they are removed again, so no
link outlives a release that was not recorded. Ids are the largest plus one: one writer per catalog.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import InternalError
from ..render import TableRef, render
from .staged import StagingEngine, publish_staged
from .verify import Checked

if TYPE_CHECKING:
    from ..db import Database


def publish_without_transactions(
    db: Database,
    out: TableRef,
    run_id: int,
    assignment: TableRef,
    *,
    write: Callable[[TableRef], None],
    check: Callable[[TableRef], Checked],
    judge: Callable[[Checked, int, TableRef], None],
    record: Callable[[Checked, bool], int],
) -> tuple[Checked, int]:
    """Publish ``out`` through staging; returns the checks and the recorded release id."""
    if not isinstance(db, StagingEngine):
        raise InternalError(f"the {db.dialect} engine cannot publish through staging")
    found: dict[str, Checked] = {}
    reserved = int(db.scalar(render("meta/next_release_id.sql")))

    def verify(stage: TableRef) -> None:
        checked = check(stage)
        found["checked"] = checked
        db.run(render("release/release_rows.sql", {"release_id": reserved}, assignment=assignment))
        try:
            judge(checked, reserved, stage)
        except BaseException:
            db.run(render("release/forget_rows.sql", {"release_id": reserved}))
            raise

    def record_last() -> int:
        release_id = record(found["checked"], False)
        if release_id != reserved:
            raise InternalError(
                f"release id {release_id} differs from the reserved {reserved}: another process wrote "
                "a release into this catalog meanwhile (one writer per Spark catalog)"
            )
        return release_id

    release_id = publish_staged(db, out, run_id, write=write, verify=verify, record=record_last)
    return found["checked"], release_id
