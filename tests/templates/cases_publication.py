"""Template cases: sql/publication/ (a release's state on its way to publication)."""

from __future__ import annotations

from .harness import Case

CASES = {
    "publication/state.sql": Case(lambda env: {}, {"release_id": 1}),
    "publication/states.sql": Case(lambda env: {}),
    "publication/record.sql": Case(
        lambda env: {},
        {"release_id": 1, "state": "candidate", "accepted": False, "composition": None, "note": "it's"},
    ),
    "publication/published.sql": Case(lambda env: {}, {"source": "main.it's"}),
    "publication/release.sql": Case(lambda env: {}, {"name": "main.it's"}),
    "publication/published_beside.sql": Case(lambda env: {}, {"release_id": 1}),
}
