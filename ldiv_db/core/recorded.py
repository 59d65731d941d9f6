"""What ldiv_db recorded about a release it wrote: the newest ``ldiv.release`` row for a table (with its
run's parameters), which algorithms publish numeric QIs as 'lo-hi' ranges and which publish only values
and '*', and whether its run took NULL as a value. Shared by ``ldiv metrics``, the report and
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
# Algorithms whose releases publish each QI cell as its value or '*' (TP Definition 1, the 'suppress'
# recoding) and read no hierarchy: their labels are read flat, '*' the whole domain even where a hierarchy
# stored for the column has a node '*' (a source value '*' kept as a leaf).
SUPPRESSION_ALGORITHMS = frozenset({"hilbert", "tp", "tp+"})


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
    # of the run's parameters only the NULL policy is kept: they hold the run's private seed too
    params = json.loads(rec.pop("run_params") or "{}")
    rec["null_as_value"] = bool(isinstance(params, dict) and params.get("null_as_value"))
    return rec


def recorded_null_as_value(rec: dict[str, Any] | None) -> bool:
    """Whether the run that wrote a recorded release took NULL as a value of its own (``--null-as-value``):
    its source is then read so when it is measured again."""
    return bool(rec is not None and rec.get("null_as_value"))


def recorded_flat_labels(rec: dict[str, Any] | None) -> bool:
    """Whether a recorded release's labels are read flat (:data:`SUPPRESSION_ALGORITHMS`: values and ``*``
    alone, no hierarchy node)."""
    return rec is not None and rec["algorithm"] in SUPPRESSION_ALGORITHMS
