"""Template cases: sql/report/ (the report's aggregates), run on the hostile fixture (the hostile table
plays both the source and the release: its QI columns are the labels, its SA the published SA)."""

from __future__ import annotations

from .harness import Case

CASES = {
    "report/release.sql": Case(lambda env: {}, {"name": "main.it's a release"}),
    "report/diversity.sql": Case(
        lambda env: {"source": env.source, "keys": env.qi, "sa": env.sa},
        {"entropy_width": 0.25, "confidence_bins": 20},
    ),
    "report/sa_counts.sql": Case(
        lambda env: {"source": env.source, "sa": env.sa, "release": env.source, "release_sa": env.sa}
    ),
}
