"""The offline HTML report of releases (``ldiv report``) and the comparison page (``ldiv compare``).

:mod:`.gather` measures a release with SQL aggregates, :mod:`.charts` draws inline SVG with matplotlib,
:mod:`.page` / :mod:`.page_compare` assemble the pages through ``render.render_html``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..db import Database
from ..errors import BadInput
from .compare import compare
from .comparison import CompareResult
from .gather import MissingRelease, ReleaseFacts, ReleaseMissing, gather, summary, verdict_line
from .output import check_page_path, write_page
from .page import report_page


@dataclass
class ReportResult:
    releases: list[ReleaseFacts | MissingRelease]
    html: str | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:

        return {
            "html": self.html,
            "seconds": round(self.seconds, 3),
            "releases": [summary(f) for f in self.releases],
        }

    def render_text(self) -> str:
        names = ", ".join(f.name for f in self.releases)
        lines = [f"report on {names} ({self.seconds:.2f} s)"]
        lines += [f"  {f.name}: {verdict_line(f.verdict)}" for f in self.releases]
        return "\n".join(lines) + (f"\npage: {self.html}" if self.html else "")


def report(
    db: Any,
    releases: str | Sequence[str],
    *,
    html: str | None = None,
    source: str | None = None,
    qi: str | Sequence[str] | None = None,
    sa: str | Sequence[str] | None = None,
    l: int | None = None,
    interval_labels: bool | None = None,
    kl: bool = True,
    null_as_value: bool = False,
) -> ReportResult:
    """Measure each release and, with ``html``, write the report page there. A release recorded by
    ldiv_db knows its source, QIs, SA and l (and whether its run took NULL as a value); for other tables
    give ``source``, ``qi`` and ``sa`` (and ``null_as_value``)."""

    t0 = time.perf_counter()
    names = [releases] if isinstance(releases, str) else list(releases)
    if not names:
        raise BadInput("no release given", "name one with --release OUT (repeat it for several)")
    if html is not None:
        check_page_path(html)  # before any work: a page never replaces the user's data
    database = Database.open(db, mode="read")
    try:
        facts: list[ReleaseFacts | MissingRelease] = []
        for n in names:
            try:
                facts.append(
                    gather(
                        database,
                        n,
                        source=source,
                        qi=qi,
                        sa=sa,
                        l=l,
                        interval_labels=interval_labels,
                        kl=kl,
                        null_as_value=null_as_value,
                    )
                )
            except ReleaseMissing as missing:  # the page says so instead of the verdict
                facts.append(missing.facts)
        path = None
        if html is not None:
            path = write_page(html, report_page(facts, database.path or "(in memory)"))
        return ReportResult(facts, path, time.perf_counter() - t0)
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()


__all__ = ["CompareResult", "MissingRelease", "ReleaseFacts", "ReportResult", "compare", "gather", "report"]
