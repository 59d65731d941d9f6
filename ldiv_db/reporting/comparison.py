"""The result of ``ldiv compare``: one entry per algorithm run or release added, measured the same way
(:mod:`.compare` builds it, :mod:`.page_compare` shows it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..util.words import l_of, number, show
from .gather import ReleaseFacts, summary


@dataclass
class Entry:
    """One column of the comparison: an algorithm run here, or a release added with ``--release``."""

    label: str
    algorithm: str
    output: str | None
    status: str  # ok | failed | skipped | external
    reason: str = ""
    seconds: float | None = None
    facts: ReleaseFacts | None = None


@dataclass
class CompareResult:
    table: str
    qi: list[str]
    sa: list[str]
    l: int
    entries: list[Entry]
    notes: list[str] = field(default_factory=list)
    html: str | None = None
    seconds: float = 0.0

    def measured(self) -> list[Entry]:
        return [e for e in self.entries if e.facts is not None]

    def to_dict(self) -> dict[str, Any]:
        out = []
        for e in self.entries:
            d: dict[str, Any] = {
                "label": e.label,
                "algorithm": e.algorithm,
                "output": e.output,
                "status": e.status,
                "reason": e.reason,
                "seconds": e.seconds,
            }
            if e.facts is not None:
                d.update(summary(e.facts))
            out.append(d)
        return {
            "table": self.table,
            "l": self.l,
            "entries": out,
            "notes": self.notes,
            "html": self.html,
            "seconds": round(self.seconds, 3),
        }

    def render_text(self) -> str:
        lines = [f"comparison on {self.table} (l = {self.l}), {self.seconds:.1f} s"]
        lines.append("  " + "  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(_COLUMNS)))
        for e in self.entries:
            if e.facts is None:
                lines.append(f"  {e.label:<10}  {e.status}: {e.reason}")
                continue
            s = summary(e.facts)
            cells = [
                e.label,
                l_of({"l": s["l"]}),
                show("ncp", s["ncp"]),
                number(s["rows_deleted"]),
                number(s["cells_suppressed"]),
                number(s["classes"]),
                show("max_confidence", s["max_confidence"]),
                "–" if e.seconds is None else show("seconds", e.seconds),
            ]
            lines.append(
                "  "
                + "  ".join(
                    c.rjust(w) if i else c.ljust(w)
                    for i, (c, (_, w)) in enumerate(zip(cells, _COLUMNS, strict=True))
                )
            )
            if s["table_state"] not in (None, "intact"):
                lines.append(f"  {'':<10} {s['headline']}")
        lines += [f"  - {n}" for n in self.notes]
        if self.html:
            lines.append(f"page: {self.html}")
        return "\n".join(lines)


# the text table of ``ldiv compare``: heading and width of each column
_COLUMNS = (
    ("release", 10), ("l", 3), ("NCP", 8), ("rows deleted", 12), ("cells suppressed", 16), ("classes", 7),
    ("max confidence", 14), ("time", 8),
)  # fmt: skip
