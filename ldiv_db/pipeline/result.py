"""What a published release reports (``ldiv anonymize --json``, ``ldiv release append --json``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..verify.verdicts import partitions_of, verdict_lines


@dataclass
class AnonymizeResult:
    run_id: int
    release_id: int
    algorithm: str
    model: str
    model_params: dict[str, Any]
    l: Any
    rows_in: int
    rows_published: int
    rows_suppressed: int
    rows_deleted: int
    classes: int  # the classes of ldiv_db.core.classes (the finest partition the published table reveals)
    seconds: float
    queries: int
    output: str
    verified: bool
    metrics: dict[str, Any]
    details: dict[str, Any] = field(default_factory=dict)
    verification: dict[str, Any] = field(default_factory=dict)
    # a new release is a draft: how it composes with the published releases of its source
    # (pipeline/publication.py draft_composition; None: nothing of the source is published)
    composition: dict[str, Any] | None = None

    @property
    def groups(self) -> int:
        """The class count under its former name (Python API compatibility)."""
        return self.classes

    @property
    def k(self) -> int | None:
        """The smallest class, as the metrics measured it on the written table."""
        k = self.metrics.get("k")
        return None if k is None else int(k)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "release_id": self.release_id,
            "algorithm": self.algorithm,
            "model": self.model,
            "model_params": self.model_params,
            "l": self.l,
            "rows_in": self.rows_in,
            "rows_published": self.rows_published,
            "rows_suppressed": self.rows_suppressed,
            "rows_deleted": self.rows_deleted,
            "classes": self.classes,
            "k": self.k,
            "risk": self.metrics.get("risk"),
            "seconds": round(self.seconds, 4),
            "queries": self.queries,
            "output": self.output,
            "verified": self.verified,
            # per partition the published table reveals, finest first: the model verified there and its verdict
            "verification": partitions_of(self.verification),
            "metrics": self.metrics,
            "details": self.details,
            "publication": "draft",
            "composition": self.composition,
        }

    def render_text(self) -> str:
        m = self.metrics
        lines = [
            f"release      {self.output} (release {self.release_id}, run {self.run_id})",
            f"algorithm    {self.algorithm}, model {self.model} {self.model_params}",
            f"rows         {self.rows_in} in, {self.rows_published} published, {self.rows_deleted} deleted, "
            f"{self.rows_suppressed} with suppressed values",
            f"classes      {self.classes} (average size {_g(m.get('avg_class_size'))}, k {_g(self.k)}){_risk(m)}",
            f"metrics      IL {_g(m.get('il'))}, LM {_g(m.get('lm'))}, DM {_g(m.get('dm'))}, "
            f"CAVG {_g(m.get('cavg'))}, KL {_g(m.get('kl'))}, stars {m.get('stars')}",
            f"verified     {'yes' if self.verified else 'NO'}",
            *(f"  {line}" for line in verdict_lines(self.verification)),
            f"time         {self.seconds:.2f} s, {self.queries} queries",
        ]
        for k, v in self.details.items():
            if not k.startswith("_"):
                lines.append(f"  {k}: {v}")
        lines.append(_publication_line(self.output, self.composition))
        return "\n".join(lines)


def _publication_line(output: str, comp: dict[str, Any] | None) -> str:
    """The draft's state, and how it would compose with the published releases of its source."""
    head = f"state        draft: publish it with `ldiv release publish DB --release {output}`"
    if comp is None:
        return head + " (nothing of its source is published yet)"
    names = ", ".join(comp["with"])
    if not comp.get("checked"):
        return f"{head}\n  beside the published {names}: not checked ({comp.get('reason')})"
    verdict = "composes safely" if comp.get("ok") else "WOULD BE REFUSED"
    return f"{head}\n  beside the published {names}: {verdict} ({comp.get('summary')})"


def _g(x: Any) -> str:
    if x is None:
        return "n/a"
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _risk(m: dict[str, Any]) -> str:
    """The classes' re-identification risk, as the report shows it."""
    r = m.get("risk")
    if not r:
        return ""
    return (
        f"\nrisk         highest {r['highest'] * 100:.4g} %, average {r['average'] * 100:.4g} %, rows above "
        f"5/10/20 %: {r['above_5pct'] * 100:.4g} / {r['above_10pct'] * 100:.4g} / {r['above_20pct'] * 100:.4g} %"
    )
