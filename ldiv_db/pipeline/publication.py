"""Publication: a release is a draft until the user publishes it, and what leaves the database is checked
as a set (DESIGN §6; README "Publishing").

* ``anonymize`` writes a **draft**; ``compare`` writes drafts marked **candidate**; ``ldiv release publish``
  makes a release **published**, which is final: its table is what left the database, so ldiv_db never
  replaces it (:mod:`ldiv_db.core.ownership`) and every later publication of the same source is checked
  against it.
* Publishing runs the composition check (:mod:`.compose`) on the release together with every published
  release of its source, and refuses when the set leaves some source row with fewer SA values than a
  release's l — unless the user accepts it by name (``--accept-composition``), which is recorded with the
  check's figures in ``ldiv.publication``, the audit trail of publication.
* :func:`draft_composition` tells ``anonymize`` how a new draft would compose with the published releases,
  before anyone publishes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.catalog import output_ref
from ..core.ownership import publication_state
from ..core.release_state import release_state
from ..db import Database
from ..errors import BadInput, LdivError, PrivacyViolation
from ..sqlgen.render import render
from .compose import Composition, compose

PUBLISHED, CANDIDATE, DRAFT = "published", "candidate", "draft"


@dataclass
class PublishResult:
    """What ``ldiv release publish`` did: the release, its state, and the composition it was checked in."""

    release_id: int
    name: str
    source: str
    state: str
    accepted: bool
    with_releases: list[str] = field(default_factory=list)
    composition: dict[str, Any] | None = None
    summary: str = ""
    already: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "release_id": self.release_id,
            "release": self.name,
            "source": self.source,
            "publication": self.state,
            "accepted_below_l": self.accepted,
            "checked_with": self.with_releases,
            "composition": self.composition,
            "already_published": self.already,
        }

    def render_text(self) -> str:
        if self.already:
            return f"{self.name} (release {self.release_id}) was already published; nothing changed"
        head = f"published {self.name} (release {self.release_id}, source {self.source})"
        if not self.with_releases:
            return head + "\n  no other published release of this source: nothing to compose with"
        acc = "\n  ACCEPTED below l by --accept-composition (recorded)" if self.accepted else ""
        return f"{head}\n  composition with {', '.join(self.with_releases)}: {self.summary}{acc}"


def states(db: Database) -> dict[int, tuple[str, bool]]:
    """release_id → (state, accepted below l) for every release that is not a plain draft."""
    return {
        int(r["release_id"]): (str(r["state"]), bool(r["accepted"]))
        for r in db.records(render("publication/states.sql"))
    }


def mark_candidate(db: Database, release_id: int) -> None:
    """A draft written by ``ldiv compare``: one of several candidates, none of them published."""
    _record(db, release_id, CANDIDATE, accepted=False, composition=None, note="written by ldiv compare")


def _record(
    db: Database, release_id: int, state: str, *, accepted: bool, composition: Composition | None, note: str
) -> None:
    db.run(
        render(
            "publication/record.sql",
            {
                "release_id": release_id,
                "state": state,
                "accepted": accepted,
                "composition": None
                if composition is None
                else json.dumps(composition.as_json(), default=str),
                "note": note,
            },
        )
    )


def published_of(db: Database, source: str, *, besides: int | None = None) -> list[tuple[int, str]]:
    """The published releases of ``source`` (release id, name), other than ``besides``."""
    rows = db.records(render("publication/published.sql", {"source": source}))
    return [(int(r["release_id"]), str(r["name"])) for r in rows if int(r["release_id"]) != besides]


def _current(db: Database, name: str) -> dict[str, Any]:
    rows = db.records(render("publication/release.sql", {"name": output_ref(name).display()}))
    if not rows:
        raise BadInput(
            f"no release is recorded under the name {name!r}",
            "name the --output of an anonymize run as `ldiv releases DB` lists it (schema.table)",
        )
    return rows[0]


def _problem(db: Database, release: dict[str, Any]) -> str | None:
    """Why a release's tables cannot be read as the ones verified (:mod:`ldiv_db.core.release_state`), or None."""
    st = release_state(db, release)
    return None if st.intact else f"its tables are {st.state} ({st.detail})"


def _unreadable(db: Database, ids: Sequence[tuple[int, str]]) -> list[str]:
    """The published releases whose tables are no longer as ldiv_db wrote them (the check reads them)."""
    out = []
    for release_id, name in ids:
        problem = _problem(db, {"release_id": release_id, "superseded_by": None})
        if problem is not None:
            out.append(f"{name} (release {release_id}): {problem}")
    return out


def publish_release(db: Database, name: str, *, accept: bool = False) -> PublishResult:
    """Publish the current release recorded as ``name`` (see the module docstring). Raises
    :class:`PrivacyViolation` (exit 1) when it composes below l with the published releases of its
    source and ``accept`` is False; :class:`BadInput` for a release that cannot be published."""
    rec = _current(db, name)
    release_id, source, display = int(rec["release_id"]), str(rec["source"]), str(rec["name"])
    if publication_state(db, release_id) == PUBLISHED:
        return PublishResult(release_id, display, source, PUBLISHED, False, already=True)
    if not rec["verified"]:
        raise BadInput(
            f"{display} (release {release_id}) is not verified; a release that failed verification is never published"
        )
    own = _problem(db, rec)
    if own is not None:
        raise BadInput(
            f"cannot publish {display} (release {release_id}): {own}",
            "publish only what ldiv_db verified: write the release again (ldiv anonymize ... --replace)",
        )
    others = published_of(db, source, besides=release_id)
    result = PublishResult(release_id, display, source, PUBLISHED, accept, [n for _, n in others])
    comp: Composition | None = None
    if others:
        comp, why, fix = _composition(db, release_id, others)
        if comp is None:
            result.summary = f"not checked: {why}"
            if not accept:
                raise PrivacyViolation(
                    f"cannot check how {display} composes with the published releases of {source}: {why}",
                    f"{fix}, or pass --accept-composition to publish it unchecked (recorded with this reason)",
                )
        else:
            result.composition, result.summary = comp.as_json(), comp.summary()
            if not comp.ok and not accept:
                raise PrivacyViolation(
                    f"{display} is not published: beside the published {', '.join(result.with_releases)} "
                    f"of {source} it leaves rows below l ({comp.summary()})",
                    "publish another candidate, raise l, or pass --accept-composition to publish it anyway "
                    "(recorded in the audit trail); `ldiv compose` shows the rows",
                )
        result.accepted = accept and (comp is None or not comp.ok)
    note = "published" if not result.accepted else f"accepted by --accept-composition: {result.summary}"
    with db.transaction():
        _record(db, release_id, PUBLISHED, accepted=result.accepted, composition=comp, note=note)
    return result


def _composition(
    db: Database, release_id: int, others: Sequence[tuple[int, str]]
) -> tuple[Composition | None, str, str]:
    """The composition check of the release with the published ``others``, or None, why it cannot run
    (a published table changed or missing; what the check does not support, e.g. Decomposition+ or a NULL
    QI value) and what would let it run."""
    broken = _unreadable(db, others)
    if broken:
        return None, "; ".join(broken), "make the set readable (restore a published table as it was)"
    try:
        return compose(db, [release_id, *(i for i, _ in others)], pairs_with=release_id), "", ""
    except LdivError as exc:
        return None, exc.message, exc.hint or "make the set one the check reads (`ldiv compose` says why)"


def draft_composition(db: Database, release_id: int) -> dict[str, Any] | None:
    """How a new draft composes with the published releases of its source: the check's JSON with the
    names it was checked with, or None when nothing of the source is published. A check that cannot run
    is reported as such, never raised: the draft stays a draft either way, and publishing it runs the
    check again."""
    rows = db.records(render("publication/published_beside.sql", {"release_id": release_id}))
    others = [(int(r["release_id"]), str(r["name"])) for r in rows if int(r["release_id"]) != release_id]
    if not others:
        return None
    names = [n for _, n in others]
    comp, why, _ = _composition(db, release_id, others)
    if comp is None:
        return {"with": names, "checked": False, "reason": why}
    return {"with": names, "checked": True, "ok": comp.ok, "summary": comp.summary(), **comp.as_json()}
