"""What ldiv_db recorded about a release it wrote: the newest ``ldiv.release`` row for a table, and
which algorithms publish numeric QIs as 'lo-hi' ranges. Shared by ``ldiv metrics``, the report and
composition, so that each reads a recorded release the same way."""

from __future__ import annotations

import json
from typing import Any

from ..db import Database
from ..errors import BadInput
from ..sqlgen.render import render
from .catalog import output_ref

# Algorithms whose releases publish numeric QIs as 'lo-hi' ranges (the 'lca' recoding): such a label is
# the interval even where a hierarchy node has the same text (ARX's age node '40-44' holds 41..45).
INTERVAL_ALGORITHMS = frozenset({"bsgi", "mondrian"})


def recorded_release(db: Database, name: str) -> dict[str, Any] | None:
    """The newest ``ldiv.release`` row written to table ``name`` (None for a table no run recorded)."""
    try:
        display = output_ref(name).display()
    except BadInput:
        return None
    rows = db.records(render("report/release.sql", {"name": display}))
    if not rows:
        return None
    rec = rows[0]
    for key in ("qi", "sa", "metrics", "details", "verification"):
        rec[key] = json.loads(rec[key]) if rec[key] is not None else None
    rec["l"] = json.loads(rec["l"]) if rec["l"] else None
    return rec
