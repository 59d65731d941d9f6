"""Release streams (Decomposition+ continuous release, SPEC §4.3): the stream state in ``ldiv.stream``
and ``ldiv release history`` (``ldiv release append`` is :mod:`ldiv_db.pipeline.append`).

A stream is named by its release OUT. ``ldiv.stream`` holds the algorithm's configuration (JSON, read
only by the algorithm) and the pipeline's state: releases published so far, the id of the first one, the
next row key, the private table of the rows kept back. The state is saved inside the transaction of the
release that changes it, so it never runs ahead of or behind the published tables.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..algorithms.base import StreamState, StreamUpdate, retained_ref
from ..core import release_state
from ..core.catalog import output_ref
from ..errors import BadInput
from ..sqlgen.render import render

if TYPE_CHECKING:
    from ..db import Database


def load(db: Database, name: str) -> StreamState | None:
    """The stream named ``name`` (a release name as displayed), or None."""
    rows = db.records(render("decomposition/stream_get.sql", {"name": name}))
    if not rows:
        return None
    r = rows[0]
    return StreamState(
        r["name"],
        r["source"],
        r["config"],
        int(r["releases"]),
        int(r["first_release"]),
        int(r["next_key"]),
        retained_ref(db, r["name"]),
    )


def forget(db: Database, name: str) -> None:
    """Inside the transaction of a first release that replaces a stream: forget the old stream's row map."""
    db.run(render("decomposition/stream_forget.sql", {"name": name}))


def save(db: Database, name: str, update: StreamUpdate, release_id: int) -> None:
    """Inside the release transaction: the stream state this release leaves."""
    params = {
        "name": name,
        "source": update.source,
        "config": update.config,
        "releases": update.releases,
        "first_release": release_id if update.first_release is None else update.first_release,
        "next_key": update.next_key,
        "retained": update.retained.display(),
    }
    db.run(render("decomposition/stream_save.sql", params))


# ---------------------------------------------------------------------------- history
@dataclass
class History:
    """``ldiv release history``: the releases of a stream and the rows it keeps back."""

    name: str
    threshold: int
    releases: list[dict[str, Any]]
    waiting: list[dict[str, int]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "release": self.name,
            "starvation_threshold": self.threshold,
            "releases": self.releases,
            "waiting": self.waiting,
        }

    def render_text(self) -> str:
        lines = [
            f"release stream {self.name} (starvation threshold {self.threshold})",
            f"{'#':>3} {'id':>5}  {'arrived':>8} {'published':>10} {'total':>8} {'waiting':>8} {'max P_s':>7} "
            f"{'placed':>6} {'groups':>7} {'noise':>6}  {'verified':<11}  created",
        ]
        for r in self.releases:
            lines.append(
                f"{r['release']:>3} {r['release_id']:>5}  {r['rows_arriving']:>8} {r['rows_newly_published']:>10} "
                f"{r['rows_published']:>8} {r['rows_waiting']:>8} {_dash(r['max_starvation_waiting']):>7} "
                f"{r['incorporated']:>6} {r['groups']:>7} {r['noise']:>6}  {_verdict_word(r):<11}  "
                f"{r['created_at']}"
            )
        if self.waiting:
            lines.append(
                "waiting now: "
                + ", ".join(f"{w['rows']} row(s) with starvation {w['starvation']}" for w in self.waiting)
            )
        else:
            lines.append("waiting now: none")
        return "\n".join(lines)


def _verdict_word(r: dict[str, Any]) -> str:
    """The recorded verdict where it still holds (:mod:`ldiv_db.core.release_state`); an earlier release of
    the stream is history ('was yes'), a current one whose tables changed says so instead."""
    if not r["verified_when_written"]:
        return "NO"
    return {
        release_state.INTACT: "yes",
        release_state.SUPERSEDED: "was yes",
        release_state.UNKNOWN: "UNCONFIRMED",
    }.get(r["table_state"], str(r["table_state"]).upper())


def _dash(x: Any) -> str:
    return "-" if x is None else str(x)


def _history_row(r: dict[str, Any], state: release_state.TableState) -> dict[str, Any]:
    d = json.loads(r["details"] or "{}")
    return {
        "release": d.get("release"),
        "release_id": int(r["release_id"]),
        "rows_arriving": d.get("rows_arriving"),
        "rows_newly_published": d.get("rows_newly_published"),
        "rows_published": int(r["rows_published"]),
        "rows_received": int(r["rows_in"]),
        "rows_waiting": d.get("rows_waiting"),
        "max_starvation_waiting": d.get("max_starvation_waiting"),
        "max_starvation_published": d.get("max_starvation_published"),
        "incorporated": d.get("incorporated"),
        "new_groups": d.get("new_groups"),
        "groups": int(r["groups"]),
        "noise": d.get("noise"),
        "verified": bool(r["verified"]) if state.intact or not r["verified"] else None,
        "verified_when_written": bool(r["verified"]),
        **state.to_dict(),
        "created_at": str(r["created_at"]),
    }


def history(db: Database, release: str) -> History:
    """``ldiv release history``: every release of the stream and its rows waiting, by starvation."""
    name = output_ref(release).display()
    stream = load(db, name)
    if stream is None:
        raise BadInput(f"there is no release stream {name}", "list the releases with: ldiv releases DB")
    rows = db.records(
        render("decomposition/history.sql", {"name": name, "first_release": stream.first_release})
    )
    waiting = [
        {"starvation": int(s), "rows": int(n)}
        for s, n in db.rows(render("decomposition/waiting.sql", retained=stream.retained))
    ]
    threshold = int(json.loads(stream.config)["starvation_threshold"])
    states = release_state.release_states(db, rows)
    return History(name, threshold, [_history_row(r, states[int(r["release_id"])]) for r in rows], waiting)
