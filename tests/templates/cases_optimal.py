"""Template cases: sql/optimal/ (the optimal full-domain search), run on the hostile fixture."""

from __future__ import annotations

from .harness import Case, HostileEnv


def _ctx(env: HostileEnv) -> dict[str, object]:
    return {"source": env.source, "qi": env.qi, "sa": [env.sa], "klass": env.klass}


CASES = {
    "optimal/histogram.sql": Case(_ctx, params={"hids": [1, 2, 3, 4]}),
}
