"""``ldiv compose``: the composition check of several releases of one source, opened read-only. Kept
apart from the API so that the command loads only the check (no algorithm, no report, no pandas); the
counts are made in :mod:`ldiv_db.pipeline.compose`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..db import Database
from ..pipeline.compose import Composition, release_ids
from ..pipeline.compose import compose as _compose
from ..util.progress import Progress


def compose(db: Any, releases: Sequence[str | int], *, worst: int = 5, quiet: bool = True) -> Composition:
    """The composition check of several releases of one source (``ldiv compose``): the rows an attacker
    who knows their QI values narrows below a release's l by intersecting the releases. ``releases``:
    release tables (the release written last to each) or release ids. A read: opens read-only.
    ``quiet=False``: progress on stderr for work over 2 s."""

    database = Database.open(db, mode="read")
    try:
        names = [r for r in releases if not isinstance(r, int)]
        found = iter(release_ids(database, names))
        ids = [r if isinstance(r, int) else next(found) for r in releases]
        return _compose(database, ids, worst=worst, progress=Progress("compose", quiet=quiet))
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()
