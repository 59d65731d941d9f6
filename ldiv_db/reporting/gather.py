"""The numbers of one release, for the report and the comparison page.

Everything is a small SQL aggregate over the written table (``sql/report/``, the metrics templates and the
partition statistics of ``ldiv check``); no row of the release is read into Python. Every class-level
number (classes, k, risk, the diversity charts, DM, CAVG) is on the classes of
:func:`ldiv_db.core.classes.class_keys`, as ``ldiv check`` computes them on the release. A recorded release
(``ldiv.release``) brings its verdict, provenance and metrics; a table made by another tool is measured
against the source the caller names, with the same statements.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..commands.attack import similarity
from ..core.catalog import Table, resolve_table
from ..core.classes import Risk, partition_keys, published_group_column
from ..core.inputs import Inputs, as_list, resolve_inputs
from ..core.recorded import (
    INTERVAL_ALGORITHMS,
    recorded_flat_labels,
    recorded_null_as_value,
    recorded_release,
)
from ..core.release_state import MISSING, TableState, release_state
from ..db import Database
from ..errors import BadInput
from ..privacy import definitions
from ..privacy.spec import model_spec
from ..risks.command import release_risk
from ..sqlgen.render import render
from ..utility import Measured, MetricsOptions, compute_metrics
from ..utility.covers import attribute_summaries, build_covers, drop_covers
from ..utility.il import attribute_ncp
from ..verify.check import CheckResult, evaluate
from ..verify.verdicts import claimed, described, partition_name, partitions_of, verdict_lines

CONFIDENCE_BINS = 20  # about this many bins over (0, 1]; a multiple of l, so that 1/l is a bin edge
ENTROPY_WIDTH = 0.25


@dataclass(frozen=True)
class Bin:
    bin: int
    classes: int
    rows: int
    lo: float
    hi: float


@dataclass
class ReleaseFacts:
    """What the pages show about one release."""

    name: str
    source: str
    qi: list[str]
    sa: list[str]
    l: int | None  # the l of the first SA (the page's default threshold)
    recorded: dict[str, Any] | None
    check: CheckResult
    metrics: dict[str, Any]
    class_sizes: list[tuple[int, int]]
    risk: Risk
    diversity: dict[str, dict[str, list[Bin]]]  # per SA: 'distinct', 'entropy', 'confidence' bins
    qi_ncp: list[tuple[str, float, int]]  # QI, average NCP over published rows, starred cells
    sa_counts: dict[str, list[tuple[str | None, int, int]]]  # per SA: value, source rows, release rows
    similarity: dict[str, Any] | None
    verdict: dict[str, Any]
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    ls: list[int] | None = None  # per SA, the l it is judged against (None: no l)

    def l_of(self, i: int) -> int | None:
        """The l of the i-th SA (a release's recorded l per SA, else the one l given)."""
        if self.ls and i < len(self.ls):
            return self.ls[i]
        return self.l

    @property
    def algorithm(self) -> str:
        return str(self.recorded["algorithm"]) if self.recorded else "(external)"

    @property
    def as_recorded(self) -> bool:
        """Do the recorded counts and metrics describe the table? Yes while it is as verified; for
        Decomposition+ always (its counts and noise only its record knows: the page says so)."""
        if self.recorded is None:
            return False
        return self.verdict.get("table_state") == "intact" or self.recorded["algorithm"] == "decomposition"

    @property
    def rows_in(self) -> int:
        if self.recorded:
            return int(self.recorded["rows_in"])
        return int(self.metrics["rows"]) + int(self.metrics["deleted_rows"])

    @property
    def rows_published(self) -> int:
        if self.as_recorded and self.recorded is not None:
            return int(self.recorded["rows_published"])
        return int(self.metrics["rows"])

    @property
    def rows_waiting(self) -> int:
        """Rows a stream keeps back for a later release (Decomposition+, recorded); 0 elsewhere."""
        return int(self.metrics.get("rows_waiting") or 0) if self.as_recorded else 0

    @property
    def rows_deleted(self) -> int:
        """Rows not published and not waiting: deleted by suppression (the words: ldiv_db/util/words.py)."""
        return max(self.rows_in - self.rows_published - self.rows_waiting, 0)

    @property
    def cells_suppressed(self) -> int | None:
        """QI cells published as ``*`` and SA cells published as unknown (None: a release recorded
        before the count was kept)."""
        if self.recorded is not None and self.recorded["algorithm"] == "decomposition":
            return 0  # the QIs are published unchanged, every SA value is published
        value = self.metrics.get("cells_suppressed")
        return None if value is None else int(value)

    @property
    def rows_with_suppressed_cells(self) -> int | None:
        if self.recorded is not None and self.recorded["algorithm"] == "decomposition":
            return 0
        value = self.metrics.get("rows_with_suppressed_cells")
        return None if value is None else int(value)

    def max_confidence_of(self, sa: str) -> float:
        bins = self.diversity.get(sa, {}).get("confidence", [])
        return max((b.hi for b in bins), default=0.0)

    @property
    def max_confidence(self) -> float:
        """The highest over the SAs (the attacker picks the SA easiest to guess)."""
        return max((self.max_confidence_of(s) for s in self.diversity), default=0.0)


@dataclass
class MissingRelease:
    """A recorded release whose table (or one of Decomposition+'s three) no longer exists, or changed so
    that it cannot be measured: the pages say so instead of its verdict, and measure nothing."""

    why: str
    name: str
    source: str
    qi: list[str]
    sa: list[str]
    l: int | None
    recorded: dict[str, Any]
    verdict: dict[str, Any]


class ReleaseMissing(BadInput):
    """Raised by :func:`gather` for a recorded release it cannot measure (:class:`MissingRelease`); ``ldiv report`` shows
    :attr:`facts`, other readers (``ldiv compare --release``) stop with the message."""

    def __init__(self, facts: MissingRelease) -> None:
        super().__init__(
            f"release {facts.name}: {facts.verdict['headline']}",
            "re-run the release to write it again, or list what is left with: ldiv releases DB",
        )
        self.facts = facts


def confidence_bins(l: int | None) -> int:
    return CONFIDENCE_BINS if not l else l * -(-CONFIDENCE_BINS // l)


def _diversity(db: Database, inputs: Inputs, keys: list[Any], i: int, l: int | None) -> dict[str, list[Bin]]:
    """The diversity distributions of the i-th SA over the classes."""
    ctx = {"source": inputs.table.ref, "keys": keys, "sa": inputs.sa[i].ident}
    params = {"entropy_width": ENTROPY_WIDTH, "confidence_bins": confidence_bins(l)}
    out: dict[str, list[Bin]] = {"distinct": [], "entropy": [], "confidence": []}
    for r in db.records(render("report/diversity.sql", params, **ctx)):
        out[r["measure"]].append(Bin(int(r["bin"]), int(r["classes"]), int(r["rows"]), r["lo"], r["hi"]))
    return out


def _qi_ncp(
    db: Database,
    source: Table,
    release: Table,
    inputs: Inputs,
    intervals: list[bool] | None,
    flat: bool,
) -> list[tuple[str, float, int]]:
    """Per QI: the average NCP of the published cells and the number of ``*`` cells (the metrics' covers;
    ``flat``: a suppression release's labels, read with no hierarchy node)."""

    qi = [source.column(c.name) for c in inputs.qi]
    tables = build_covers(db, source, release, qi, [c.ident for c in inputs.qi], intervals, flat=flat)
    try:
        summaries = attribute_summaries(db, tables, source, release, qi)
    finally:
        drop_covers(db, tables)
    rows = max(inputs.rows, 1)
    return [
        (c.name, float(attribute_ncp(s) / rows), int(s.stars)) for c, s in zip(qi, summaries, strict=True)
    ]


def _similarity(db: Database, inputs: Inputs, state: TableState | None) -> dict[str, Any] | None:
    """The similarity attack where categories are stored; left out for a table changed since
    verification that it cannot measure (an SA value written by hand has no category)."""
    if inputs.categories is None or len(inputs.sa) != 1:
        return None

    # a release's classes: similarity finds its group column itself and groups by it and the labels
    group = inputs.group.name if inputs.group is not None and not inputs.published_group else None
    try:
        return similarity(
            db, inputs.table.name, [c.name for c in inputs.qi], inputs.sa[0].name, None, group
        ).to_dict()
    except BadInput:
        if state is None or state.intact:
            raise
        return None


def _verdict(
    db: Database,
    inputs: Inputs,
    recorded: dict[str, Any] | None,
    l: int | None,
    state: TableState | None,
    null_as_value: bool = False,
) -> dict[str, Any]:
    """The recorded verification while the table is as verified (``state``, :mod:`ldiv_db.core.release_state`),
    else what happened to the table instead of it; for an external table the distinct l-diversity check
    at ``l``, computed now."""
    if recorded is not None and state is not None:
        return recorded_verdict(recorded, state)
    if l is None:
        return {"model": None, "verified": None, "recorded": False, "table_state": None}
    model = model_spec("distinct", [l] * len(inputs.sa)).build(inputs)
    res = evaluate(db, inputs, model, prefix="report_v", null_as_value=null_as_value)
    return {
        "model": model.describe() if model else None,
        "definitions": definitions(model.name if model else None),
        "verified": res.satisfied,
        "recorded": False,
        "table_state": None,
        "violating_groups": res.violating_groups,
        "violating_rows": res.violating_rows,
    }


def recorded_verdict(recorded: dict[str, Any], state: TableState) -> dict[str, Any]:
    """A recorded release's verdict as a reader may show it: ``verified`` is the recorded verdict only
    while the table is intact (else None, and ``headline`` says why)."""
    ver = recorded.get("verification") or {}
    top = claimed(ver)
    model = described(top) if top is not None else str(ver.get("model") or recorded["model"])
    written = bool(recorded["verified"])
    return {
        "model": model,
        "definitions": definitions(
            str(top["model"]) if top is not None and top.get("model") else recorded["model"]
        ),
        "verified": written if state.intact or not written else None,
        "verified_when_written": written,
        **state.to_dict(),
        "headline": None if state.intact else state.headline(model),
        "recorded": True,
        "run_id": recorded["run_id"],
        "release_id": recorded["release_id"],
        "created_at": str(recorded["created_at"]),
        # where the claimed model was verified (the finest partition) and every partition's verdict
        "partition": None if top is None else partition_name(top["partition"], top["keys"]),
        "partitions": partitions_of(ver),
        "lines": verdict_lines(ver),
    }


def verdict_line(verdict: dict[str, Any]) -> str:
    """The headline of a release in words (the CLI's text; the page draws the same in _macros.html)."""
    model = verdict.get("model")
    if verdict.get("headline"):
        return str(verdict["headline"])
    if verdict.get("verified") is None:
        return "no privacy model to check (give l)"
    by = f" by {verdict['partition']}" if verdict.get("partition") else ""
    if not verdict["verified"]:
        return f"✘ {model} does NOT hold{by}"
    if verdict.get("recorded"):
        return (
            f"✔ {model} holds{by} — verified on the written table by run {verdict['run_id']} "
            f"(release {verdict['release_id']}), which is unchanged since"
        )
    return f"✔ {model} holds — checked now on the table"


def gather(
    db: Database,
    release: str,
    *,
    source: str | None = None,
    qi: str | Sequence[str] | None = None,
    sa: str | Sequence[str] | None = None,
    l: int | None = None,
    interval_labels: bool | None = None,
    kl: bool = True,
    null_as_value: bool = False,
) -> ReleaseFacts:
    """Measure ``release``. A recorded release knows its source, QIs, SA and l; other tables need them.
    ``null_as_value``: NULL is a value of its own in the source and the release (a release recorded with
    ``--null-as-value`` is read so without it), as anonymize verified and measured it.
    A recorded release is first checked against its verification (:mod:`ldiv_db.core.release_state`): one
    whose table is missing, or changed so that it cannot be measured, raises :class:`ReleaseMissing`."""
    t0 = time.perf_counter()
    rec = recorded_release(db, release)
    state = None if rec is None else release_state(db, rec)
    if rec is not None and state is not None and state.state == MISSING:
        raise ReleaseMissing(_missing(rec, state, l, "the release's table is not there"))
    try:
        asked = Asked(source, qi, sa, l, interval_labels, kl, null_as_value or recorded_null_as_value(rec))
        return _measure(db, release, (rec, state), t0, asked)
    except BadInput as exc:
        if rec is None or state is None or state.intact or isinstance(exc, ReleaseMissing):
            raise
        why = f"the table as it is now cannot be measured: {exc.message}"
        raise ReleaseMissing(_missing(rec, state, l, why)) from None


@dataclass(frozen=True)
class Asked:
    """What the caller says of a release to measure (a recorded release fills in what is not given)."""

    source: str | None
    qi: str | Sequence[str] | None
    sa: str | Sequence[str] | None
    l: int | None
    interval_labels: bool | None
    kl: bool
    null_as_value: bool = False


def _measure(
    db: Database,
    release: str,
    recorded: tuple[dict[str, Any] | None, TableState | None],
    t0: float,
    asked: Asked,
) -> ReleaseFacts:
    (rec, state), kl, nv = recorded, asked.kl, asked.null_as_value
    source, qi, sa, l, interval_labels = asked.source, asked.qi, asked.sa, asked.l, asked.interval_labels
    ls = None if l is None else [l]
    if rec is not None:
        source = source or str(rec["source"])
        qi = qi or rec["qi"]
        sa = sa or rec["sa"]
        if l is None and rec["l"]:
            ls = [int(x) for x in rec["l"]]
            l = ls[0]
        if interval_labels is None:
            interval_labels = rec["algorithm"] in INTERVAL_ALGORITHMS
    if source is None or not as_list(qi) or not as_list(sa):
        raise BadInput(
            f"{release} is not a release recorded in this database",
            "to measure a table made by another tool, name its source, QIs and SA: "
            "--source T --qi a,b,c --sa s",
        )
    src = _resolved(db, source, qi, as_list(sa), null_as_value=nv)
    qi_names, sa_names = [c.name for c in src.qi], [c.name for c in src.sa]
    if rec is not None and rec["algorithm"] == "decomposition":
        # Decomposition+ publishes the QIs unchanged (<out>_qid) and each group's SA multisets (<out>_sa):
        # the classes are the SA table's groups, NCP is 0 on every QI, the noise shows in the SA counts
        inputs = _resolved(
            db, f"{release}_sa", None, sa_names, group_column="group_id", require_qi=False, null_as_value=nv
        )
        keys = partition_keys(inputs)
        metrics = dict(rec.get("metrics") or {})
        qi_ncp = [(q, 0.0, 0) for q in qi_names]
    else:
        # a recorded release: its classes are by its published group column and the labels; any other
        # table's by its labels, as ldiv check groups them
        group = published_group_column(db, resolve_table(db, release)) if rec is not None else None
        inputs = _resolved(
            db, release, qi_names, sa_names, group_column=group, null_sa_unknown=True, null_as_value=nv
        )
        inputs = dataclasses.replace(inputs, published_group=group is not None)
        keys = partition_keys(inputs)
        intervals = [c.is_numeric for c in src.qi] if interval_labels else None
        metrics = _current_metrics(db, rec, state, src, inputs, l, intervals, kl)
        qi_ncp = _qi_ncp(db, src.table, inputs.table, inputs, intervals, recorded_flat_labels(rec))
    sa_nv = src.sa_null_values  # else a NULL SA cell of the release is a suppressed value
    check = evaluate(db, inputs, None, prefix="report_c", null_as_value=sa_nv)
    assert check.sizes is not None
    return ReleaseFacts(
        name=inputs.table.name if rec is None or rec["algorithm"] != "decomposition" else str(rec["name"]),
        source=src.table.name,
        qi=qi_names,
        sa=sa_names,
        l=l,
        recorded=rec,
        check=check,
        metrics=metrics,
        class_sizes=list(check.sizes.sizes),
        risk=check.sizes.risk,
        diversity={s.name: _diversity(db, inputs, keys, i, _nth(ls, i)) for i, s in enumerate(inputs.sa)},
        qi_ncp=qi_ncp,
        sa_counts={r.name: _sa_counts(db, src, inputs, i) for i, r in enumerate(inputs.sa)},
        similarity=_similarity(db, inputs, state),
        verdict=_verdict(db, inputs, rec, l, state, sa_nv),
        seconds=time.perf_counter() - t0,
        extra={"risk": release_risk(db, inputs.table, inputs.qi, inputs.group)},
        ls=None if not ls else [ls[min(i, len(ls) - 1)] for i in range(len(inputs.sa))],
    )


def _resolved(db: Database, table: str, qi: Any, sa: Any, **kw: Any) -> Inputs:
    """The inputs of a table measured here; a NULL in a role refused with the hint to pass
    ``--null-as-value`` (``report`` and ``compare`` take it)."""
    return resolve_inputs(db, table, qi, sa, **kw)


def _nth(ls: list[int] | None, i: int) -> int | None:
    """The i-th SA's l: one per SA, or the one l for all."""
    if not ls:
        return None
    return ls[i] if i < len(ls) else ls[-1]


def _missing(rec: dict[str, Any], state: TableState, l: int | None, why: str) -> MissingRelease:
    return MissingRelease(
        why=why,
        name=str(rec["name"]),
        source=str(rec["source"]),
        qi=list(rec["qi"] or []),
        sa=list(rec["sa"] or []),
        l=l if l is not None or not rec["l"] else int(rec["l"][0]),
        recorded=rec,
        verdict=recorded_verdict(rec, state),
    )


def _sa_counts(db: Database, src: Inputs, inputs: Inputs, i: int) -> list[tuple[str | None, int, int]]:
    q = render(
        "report/sa_counts.sql",
        source=src.table.ref,
        sa=src.sa[i].ident,
        release=inputs.table.ref,
        release_sa=inputs.sa[i].ident,
    )
    return [(None if v is None else str(v), int(a), int(b)) for v, a, b in db.rows(q)]


def _current_metrics(
    db: Database,
    rec: dict[str, Any] | None,
    state: TableState | None,
    src: Inputs,
    inputs: Inputs,
    l: int | None,
    intervals: list[bool] | None,
    kl: bool,
) -> dict[str, Any]:
    """The metrics of the table as it is: recorded while it is as verified; a table changed since is
    measured now, and one the metrics cannot measure any more (more rows than its source) gets a note
    instead, so that the page can still say what happened to it. A suppression release's labels are read
    with no hierarchy node (:func:`~ldiv_db.core.recorded.recorded_flat_labels`)."""
    flat = recorded_flat_labels(rec)
    how = MetricsOptions(
        l=l, interval_labels=intervals, kl=kl, sa_null_values=src.sa_null_values, flat_labels=flat
    )
    if state is None or state.intact:
        return _metrics(db, rec, src, inputs, how)
    try:
        return _metrics(db, None, src, inputs, how)
    except BadInput as exc:
        return {"rows": inputs.rows, "deleted_rows": 0, "metrics_note": exc.message}


def _metrics(
    db: Database,
    rec: dict[str, Any] | None,
    src: Inputs,
    rel: Inputs,
    how: MetricsOptions,
) -> dict[str, Any]:
    """The recorded metrics of the release (what anonymize computed on the written table), or computed now
    by the same function ``ldiv metrics`` calls, on the same classes as the check (``rel.group``)."""
    if rec is not None and rec.get("metrics") and "il" in rec["metrics"]:
        return dict(rec["metrics"])

    group = rel.group.name if rel.group is not None else None
    return compute_metrics(
        db,
        Measured(src.table, rel.table, src.qi, src.sa, group),
        how,
    ).to_dict()


def summary(f: ReleaseFacts | MissingRelease) -> dict[str, Any]:
    """The comparison's numbers of one release (a missing release: its state, and no numbers)."""
    state = {"table_state": f.verdict.get("table_state"), "headline": verdict_line(f.verdict)}
    if isinstance(f, MissingRelease):
        return {"release": f.name, "verified": None, **state}
    m = f.metrics
    return {
        "release": f.name,
        "verified": f.verdict.get("verified"),
        **state,
        "model": f.verdict.get("model"),
        # the model's name (a recorded release's; distinct for an external one, as checked)
        "model_name": str(f.recorded["model"]) if f.recorded else ("distinct" if f.l is not None else None),
        # a recorded release: per partition it reveals, the model verified there and its verdict
        "verification": f.verdict.get("partitions") or [],
        "ncp": float(m.get("ncp") or 0.0),
        "il": m.get("il"),
        "dm": m.get("dm"),
        "kl": m.get("kl"),
        "l": f.ls or ([] if f.l is None else [f.l]),
        "rows_in": f.rows_in,
        "rows_published": f.rows_published,
        "rows_deleted": f.rows_deleted,
        "rows_waiting": f.rows_waiting,
        "rows_with_suppressed_cells": f.rows_with_suppressed_cells,
        "cells_suppressed": f.cells_suppressed,
        "partition": f.check.partition,
        "classes": f.check.groups,
        "k": f.check.k,
        "risk": f.risk.to_dict(),
        # every re-identification figure with its formula, assumption and paper (ldiv risk's)
        "risk_figures": [x.to_dict() for x in f.extra["risk"].figures()] if "risk" in f.extra else [],
        "max_confidence": f.max_confidence,
    }


def comparable(l: int, s: dict[str, Any]) -> bool:
    """Is a release's privacy (its :func:`summary` ``s``) comparable with a comparison at ``l``: made
    for that l on every SA? A release made for another l (``ldiv compare --release``) is judged against
    its own l, and left out of every privacy ranking."""
    ls = s.get("l") or []
    return bool(ls) and all(x == l for x in ls)
