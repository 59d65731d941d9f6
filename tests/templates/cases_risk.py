"""Template cases: sql/risk/ (``ldiv risk``), run on the hostile fixture; the hostile table plays the
population too."""

from __future__ import annotations

from ldiv_db.sqlgen.render import Ident

from .harness import Case, HostileEnv

ROW_NAMES = (
    "class_size",
    "prosecutor_risk",
    "sample_unique",
    "population_size",
    "journalist_risk",
    "above_threshold",
)


def _journalist(env: HostileEnv) -> dict[str, object]:
    return {
        "source": env.source,
        "keys": env.qi,
        "population": env.source,
        "population_keys": env.qi,
        "pairs": list(zip(env.qi, env.qi, strict=True)),
    }


def _rows(env: HostileEnv) -> dict[str, object]:
    return {
        **_journalist(env),
        "target": env.named("risk rows's"),
        "names": {n: Ident(n) for n in ROW_NAMES},
    }


CASES = {
    "risk/frequencies.sql": Case(
        lambda env: {"source": env.source, "sets": [env.qi, env.qi[1:], []]}, unordered_lists=True
    ),
    "risk/journalist.sql": Case(_journalist),
    "risk/rows.sql": Case(_rows, {"threshold_num": 1, "threshold_den": 5}),
}
