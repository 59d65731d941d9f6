"""``ldiv releases``: every recorded release with the state of its tables, its publication state and its
verdicts (re-exported by :mod:`ldiv_db.api`). A module of its own, so the command loads what it reads:
no algorithm, model or report (docs/decisions/0023-start-up.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..core import release_state
from ..db import Database
from ..pipeline.publication import DRAFT
from ..pipeline.publication import states as publication_states
from ..sqlgen.render import render
from ..util.words import model_phrase, number
from ..verify.verdicts import partitions_of, verdict_brief


@dataclass
class ReleaseList:
    """``ldiv releases``: every recorded release, newest first. ``verified`` is the recorded verdict
    where it still holds (the table is as verified: ``table_state`` intact), else None; the verdict
    as recorded is ``verified_when_written`` (:mod:`ldiv_db.core.release_state`). ``verification`` of each:
    per partition the published table reveals, the model verified there and its verdict
    (:mod:`ldiv_db.verify.verdicts`)."""

    rows: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"releases": self.rows}

    def render_text(self) -> str:
        if not self.rows:
            return "no releases recorded"
        table = [RELEASE_COLUMNS]
        for r in self.rows:
            pub = r.get("publication", "draft") + (" (accepted below l)" if r.get("accepted_below_l") else "")
            models = verdict_brief({"partitions": r["verification"]}) if r.get("verified") else ""
            table.append(
                (
                    str(r["release_id"]),
                    str(r["name"]),
                    str(r["source"]),
                    str(r["algorithm"]),
                    _model_of(r),
                    f"{number(r['rows_published'])}/{number(r['rows_in'])}",
                    number(r["classes"]),
                    number(r["k"]),
                    pub,
                    str(r["created_at"])[:19],
                    _shown_state(r) + (f" ({models})" if models else ""),
                )
            )
        widths = [max(len(row[i]) for row in table) for i in range(len(RELEASE_COLUMNS) - 1)]
        return "\n".join(
            "  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]]).rstrip()
            for row in table
        )


# the header row of ``ldiv releases`` (the last column, the verdict, is as long as it needs)
RELEASE_COLUMNS = (
    "id", "release", "source", "algorithm", "model", "rows published/in", "classes", "k", "publication",
    "created", "verdict",
)  # fmt: skip


def _model_of(r: dict[str, Any]) -> str:
    """The model the release claims, with every parameter (``recursive (c=3, l=4)``): from the verdict
    of its finest partition, else from its record's model and l."""
    parts = r.get("verification") or []
    if parts and parts[0].get("model"):
        return model_phrase(parts[0]["model"], parts[0].get("params"))
    l = json.loads(r["l"]) if isinstance(r.get("l"), str) else r.get("l")
    return model_phrase(r["model"], {"l": l} if l else None)


def _shown_state(r: dict[str, Any]) -> str:
    """The verdict where it still holds; otherwise what happened to the table instead of it."""
    state, detail = r["table_state"], r["table_detail"]
    if not r["verified_when_written"]:
        return "NOT VERIFIED"
    if state == release_state.INTACT:
        return "verified"
    if state == release_state.SUPERSEDED:
        return f"superseded by {r['superseded_by']}"
    word = {release_state.UNKNOWN: "UNCONFIRMED"}.get(state, state.upper() + " since verification")
    return f"{word} ({detail})"


def _release_row(r: dict[str, Any]) -> dict[str, Any]:
    """A recorded release as listed: its class count, k and re-identification risk as anonymize measured
    them on the written table (:mod:`ldiv_db.core.classes`; k and risk None for a release recorded before they
    were kept)."""
    text = r.pop("metrics")
    metrics = json.loads(text) if text else {}
    # the audit column rows_suppressed is not shown: the words of ldiv_db/util/words.py instead (decision 0011)
    out = {k: v for k, v in r.items() if k not in ("groups", "rows_suppressed")}
    waiting = int(metrics.get("rows_waiting") or 0)
    out.update(
        classes=r["groups"],
        k=metrics.get("k"),
        risk=metrics.get("risk"),
        rows_deleted=int(r["rows_in"]) - int(r["rows_published"]) - waiting,
        rows_waiting=waiting,
        cells_suppressed=metrics.get("cells_suppressed"),
        rows_with_suppressed_cells=metrics.get("rows_with_suppressed_cells"),
    )
    return out


def releases(db: Any) -> ReleaseList:
    """Every recorded release, each with the state of its tables (:func:`release_state.release_states`)
    and its publication state (:mod:`ldiv_db.pipeline.publication`: draft, candidate, published)."""

    database = Database.open(db, mode="read")
    try:
        rows = [_release_row(r) for r in database.records(render("meta/releases.sql"))]
        states = release_state.release_states(database, rows)
        published = publication_states(database)
        for r in rows:
            st = states[int(r["release_id"])]
            written = bool(r.pop("verified"))
            r.update(st.to_dict())
            r["verified"] = written if st.intact or not written else None
            r["verified_when_written"] = written
            r["publication"], r["accepted_below_l"] = published.get(int(r["release_id"]), (DRAFT, False))
            r["verification"] = partitions_of(json.loads(r["verification"]) if r["verification"] else None)
        return ReleaseList(rows)
    finally:
        if database is not db:
            database.close()
