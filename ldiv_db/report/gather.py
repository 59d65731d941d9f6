"""The numbers of one release, for the report and the comparison page.

Everything is a small SQL aggregate over the written table (``sql/report/``, the metrics templates and the
partition statistics of ``ldiv check``); no row of the release is read into Python. Every class-level
number (classes, k, risk, the diversity charts, DM, CAVG) is on the classes of
:func:`ldiv_db.classes.class_keys`, as ``ldiv check`` computes them on the release. A recorded release
(``ldiv.release``) brings its verdict, provenance and metrics; a table made by another tool is measured
against the source the caller names, with the same statements.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..catalog import Table, output_ref, resolve_table
from ..check import CheckResult, evaluate
from ..classes import Risk, partition_keys, published_group_column
from ..db import Database
from ..errors import BadInput
from ..inputs import Inputs, as_list, resolve_inputs
from ..privacy.spec import model_spec
from ..render import render

# Algorithms that publish numeric QIs as 'lo-hi' ranges (the 'lca' recoding): their metrics read such
# labels as intervals, as the anonymize command does (``ldiv metrics --interval-labels``).
INTERVAL_ALGORITHMS = frozenset({"bsgi", "mondrian"})
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
    l: int | None
    recorded: dict[str, Any] | None
    check: CheckResult
    metrics: dict[str, Any]
    class_sizes: list[tuple[int, int]]
    risk: Risk
    diversity: dict[str, list[Bin]]
    qi_ncp: list[tuple[str, float, int]]  # QI, average NCP over published rows, starred cells
    sa_counts: dict[str, list[tuple[str | None, int, int]]]  # per SA: value, source rows, release rows
    similarity: dict[str, Any] | None
    verdict: dict[str, Any]
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def algorithm(self) -> str:
        return str(self.recorded["algorithm"]) if self.recorded else "(external)"

    @property
    def rows_in(self) -> int:
        if self.recorded:
            return int(self.recorded["rows_in"])
        return int(self.metrics["rows"]) + int(self.metrics["deleted_rows"])

    @property
    def rows_published(self) -> int:
        return int(self.recorded["rows_published"]) if self.recorded else int(self.metrics["rows"])

    @property
    def rows_deleted(self) -> int:
        """Rows not published: deleted by suppression, or (Decomposition+) kept back for a later release."""
        return self.rows_in - self.rows_published

    @property
    def rows_suppressed(self) -> int:
        """Recorded: the pipeline's count; otherwise deleted rows plus rows that carry a ``*``."""
        if self.recorded:
            return int(self.recorded["rows_suppressed"])
        return self.rows_deleted + int(self.metrics.get("starred_rows") or 0)

    @property
    def max_confidence(self) -> float:
        bins = self.diversity.get("confidence", [])
        return max((b.hi for b in bins), default=0.0)


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


def confidence_bins(l: int | None) -> int:
    return CONFIDENCE_BINS if not l else l * -(-CONFIDENCE_BINS // l)


def _diversity(db: Database, inputs: Inputs, keys: list[Any], l: int | None) -> dict[str, list[Bin]]:
    ctx = {"source": inputs.table.ref, "keys": keys, "sa": inputs.sa[0].ident}
    params = {"entropy_width": ENTROPY_WIDTH, "confidence_bins": confidence_bins(l)}
    out: dict[str, list[Bin]] = {"distinct": [], "entropy": [], "confidence": []}
    for r in db.records(render("report/diversity.sql", params, **ctx)):
        out[r["measure"]].append(Bin(int(r["bin"]), int(r["classes"]), int(r["rows"]), r["lo"], r["hi"]))
    return out


def _qi_ncp(
    db: Database, source: Table, release: Table, inputs: Inputs, intervals: list[bool] | None
) -> list[tuple[str, float, int]]:
    """Per QI: the average NCP of the published cells and the number of ``*`` cells (the metrics' covers)."""
    from ..metrics.covers import attribute_summaries, build_covers, drop_covers
    from ..metrics.il import attribute_ncp

    qi = [source.column(c.name) for c in inputs.qi]
    tables = build_covers(db, source, release, qi, [c.ident for c in inputs.qi], intervals)
    try:
        summaries = attribute_summaries(db, tables, source, release, qi)
    finally:
        drop_covers(db, tables)
    rows = max(inputs.rows, 1)
    return [
        (c.name, float(attribute_ncp(s) / rows), int(s.stars)) for c, s in zip(qi, summaries, strict=True)
    ]


def _similarity(db: Database, inputs: Inputs) -> dict[str, Any] | None:
    if inputs.categories is None or len(inputs.sa) != 1:
        return None
    from ..attack import similarity

    # a release's classes: similarity finds its group column itself and groups by it and the labels
    group = inputs.group.name if inputs.group is not None and not inputs.published_group else None
    return similarity(
        db, inputs.table.name, [c.name for c in inputs.qi], inputs.sa[0].name, None, group
    ).to_dict()


def _verdict(db: Database, inputs: Inputs, recorded: dict[str, Any] | None, l: int | None) -> dict[str, Any]:
    """The recorded verification, or for an external table the distinct l-diversity check at ``l``."""
    if recorded is not None:
        ver = recorded.get("verification") or {}
        return {
            "model": ver.get("model") or recorded["model"],
            "verified": bool(recorded["verified"]),
            "recorded": True,
            "run_id": recorded["run_id"],
            "release_id": recorded["release_id"],
            "created_at": str(recorded["created_at"]),
            "by_group": ver.get("by_group"),
            "by_qi_labels": ver.get("by_qi_labels"),
        }
    if l is None:
        return {"model": None, "verified": None, "recorded": False}
    model = model_spec("distinct", [l] * len(inputs.sa)).build(inputs)
    res = evaluate(db, inputs, model, prefix="report_v")
    return {
        "model": model.describe() if model else None,
        "verified": res.satisfied,
        "recorded": False,
        "violating_groups": res.violating_groups,
        "violating_rows": res.violating_rows,
    }


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
) -> ReleaseFacts:
    """Measure ``release``. A recorded release knows its source, QIs, SA and l; other tables need them."""
    t0 = time.perf_counter()
    rec = recorded_release(db, release)
    if rec is not None:
        source = source or str(rec["source"])
        qi = qi or rec["qi"]
        sa = sa or rec["sa"]
        if l is None and rec["l"]:
            l = int(rec["l"][0])
        if interval_labels is None:
            interval_labels = rec["algorithm"] in INTERVAL_ALGORITHMS
    if source is None or not as_list(qi) or not as_list(sa):
        raise BadInput(
            f"{release} is not a release recorded in this database",
            "to measure a table made by another tool, name its source, QIs and SA: "
            "--source T --qi a,b,c --sa s",
        )
    src = resolve_inputs(db, source, qi, as_list(sa))
    qi_names, sa_names = [c.name for c in src.qi], [c.name for c in src.sa]
    if rec is not None and rec["algorithm"] == "decomposition":
        # Decomposition+ publishes the QIs unchanged (<out>_qid) and each group's SA multisets (<out>_sa):
        # the classes are the SA table's groups, NCP is 0 on every QI, the noise shows in the SA counts
        inputs = resolve_inputs(
            db, f"{release}_sa", None, sa_names, group_column="group_id", require_qi=False
        )
        keys = partition_keys(inputs)
        metrics = dict(rec.get("metrics") or {})
        qi_ncp = [(q, 0.0, 0) for q in qi_names]
    else:
        # a recorded release: its classes are by its published group column and the labels; any other
        # table's by its labels, as ldiv check groups them
        group = published_group_column(db, resolve_table(db, release)) if rec is not None else None
        inputs = resolve_inputs(db, release, qi_names, sa_names, group_column=group, null_sa_unknown=True)
        inputs = dataclasses.replace(inputs, published_group=group is not None)
        keys = partition_keys(inputs)
        intervals = [c.is_numeric for c in src.qi] if interval_labels else None
        metrics = _metrics(db, rec, src, inputs, l, intervals, kl)
        qi_ncp = _qi_ncp(db, src.table, inputs.table, inputs, intervals)
    check = evaluate(db, inputs, None, prefix="report_c")
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
        diversity=_diversity(db, inputs, keys, l),
        qi_ncp=qi_ncp,
        sa_counts={r.name: _sa_counts(db, src, inputs, i) for i, r in enumerate(inputs.sa)},
        similarity=_similarity(db, inputs),
        verdict=_verdict(db, inputs, rec, l),
        seconds=time.perf_counter() - t0,
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


def _metrics(
    db: Database,
    rec: dict[str, Any] | None,
    src: Inputs,
    rel: Inputs,
    l: int | None,
    intervals: list[bool] | None,
    kl: bool,
) -> dict[str, Any]:
    """The recorded metrics of the release (what anonymize computed on the written table), or computed now
    by the same function ``ldiv metrics`` calls, on the same classes as the check (``rel.group``)."""
    if rec is not None and rec.get("metrics") and "il" in rec["metrics"]:
        return dict(rec["metrics"])
    from ..metrics import compute_metrics

    return compute_metrics(
        db,
        src.table,
        rel.table,
        list(src.qi),
        list(src.sa),
        l=l,
        group_column=rel.group.name if rel.group is not None else None,
        interval_labels=intervals,
        kl=kl,
    ).to_dict()


def summary(f: ReleaseFacts) -> dict[str, Any]:
    """The comparison's numbers of one release."""
    m = f.metrics
    return {
        "release": f.name,
        "verified": f.verdict.get("verified"),
        "ncp": float(m.get("ncp") or 0.0),
        "il": m.get("il"),
        "dm": m.get("dm"),
        "kl": m.get("kl"),
        "rows_in": f.rows_in,
        "rows_published": f.rows_published,
        "rows_suppressed": f.rows_suppressed,
        "partition": f.check.partition,
        "classes": f.check.groups,
        "k": f.check.k,
        "risk": f.risk.to_dict(),
        "max_confidence": f.max_confidence,
    }
