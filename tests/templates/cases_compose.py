"""Template cases: sql/compose/ (the composition check), run on the hostile fixture: the metrics cases'
hostile release (labels from the fixture's hierarchies, an interval, a deleted row, a suppressed SA)
is composed with itself, every statement of the chain prepared by the ones before it."""

from __future__ import annotations

from typing import Any

from ldiv_db.sqlgen.render import TableRef

from .cases_metrics import _prepare_release, _release, _tables
from .harness import Case, HostileEnv

VS = ["v1", "v2", "v3", "v4"]
LS = ["l1", "l2", "l3", "l4"]


def _work(env: HostileEnv) -> dict[str, TableRef]:
    names = ("codes", "keys", "points", "domain", "cover", "masks", "classes", "step0", "step1", "units",
             "unit masks", "combos", "driving", "words", "membership", "shared", "left", "own")  # fmt: skip
    return {n: env.work(f"compose {n}") for n in names}


def _ctx(**extra: Any) -> Any:
    def build(env: HostileEnv) -> dict[str, Any]:
        w = _work(env)
        base: dict[str, Any] = {
            "source": env.source,
            "release": _release(env),
            "qi": env.qi,
            "rqi": env.qi,
            "sa": env.sa,
            "vs": VS,
            "ls": LS,
            "k": 4,
            "positions": [1],
            "m": 2,
            "codes": w["codes"],
            "keys": w["keys"],
            "points": w["points"],
            "domain": w["domain"],
            "masks": w["masks"],
            "classes": w["classes"],
            "cover": w["cover"],
            "labels": _tables(env)["labels"],
            "at": [1, 2, 3, 4],
            "membership": w["membership"],
            "shared": w["shared"],
            "sizes": [1, 1, 1, 1],
            "masks_of": [w["masks"], w["masks"]],
            "classes_of": [w["classes"], w["classes"]],
            "units": [w["units"], w["units"]],
            "umasks": [w["unit masks"], w["unit masks"]],
            "combos": w["combos"],
            "driving": w["driving"],
            "words": w["words"],
            "noshared": [True, False],  # a release without a shared mask, and one with
        }
        return {**base, **{k: (v(env) if callable(v) else v) for k, v in extra.items()}}

    return build


def _step(env: HostileEnv, name: str, params: dict[str, Any] | None = None, **extra: Any) -> None:
    env.run(f"compose/{name}.sql", params, **_ctx(**extra)(env))


def _prepare(upto: str) -> Any:
    """Run the chain's statements before ``upto``."""
    chain = ["value_codes", "keys", "points", "sa_domain", "cover_codes", "class_masks", "classes", "step0",
             "step1", "units", "unit_masks", "shared", "combos", "driving", "words", "membership", "values_left", "pair_units", "done"]  # fmt: skip

    def prepare(env: HostileEnv) -> None:
        _prepare_release(env)
        w = _work(env)
        for name in chain[: chain.index(upto)]:
            if name == "value_codes":
                _step(env, "value_codes", target=w["codes"])
            elif name == "cover_codes":
                _step(env, "cover_codes", target=w["cover"], cover=_tables(env)["cover"])
            elif name == "keys":
                _step(env, "keys", {"deleting": [1]}, target=w["keys"])
            elif name == "points":
                _step(env, "points", target=w["points"])
            elif name == "sa_domain":
                _step(env, "sa_domain", target=w["domain"])
            elif name == "class_masks":
                _step(env, "class_masks", target=w["masks"])
            elif name == "classes":
                _step(env, "classes", target=w["classes"])
            elif name == "step0":
                _step(env, "covering", **_covering(0)(env))
            elif name == "step1":
                _step(env, "covering", **_covering(1)(env))
            elif name == "units":
                _step(env, "units", target=w["units"], pairs=w["step1"])
            elif name == "unit_masks":
                _step(env, "unit_masks", target=w["unit masks"], units=w["units"], pairs=w["step1"])
            elif name == "combos":
                _step(env, "combos", target=w["combos"])
            elif name == "driving":
                _step(env, "driving", target=w["driving"])
            elif name == "words":
                _step(env, "words", target=w["words"])
            elif name == "membership":
                _step(env, "membership", target=w["membership"])
            elif name == "shared":
                _step(env, "shared", target=w["shared"])
            elif name == "values_left":
                _step(env, "values_left", target=w["left"])
            elif name == "pair_units":
                _step(env, "pair_units", {"most": 4}, target=w["own"], values=w["left"])

    return prepare


def _covering(j: int) -> Any:
    """Step j of the covering join: QI 1 alone, then QIs 1..4 at once (the last step)."""

    def build(env: HostileEnv) -> dict[str, Any]:
        w = _work(env)
        if j == 0:
            return {
                "target": w["step0"],
                "prev": None,
                "cols": ["v1"],
                "attr": 1,
                "label": "l1",
                "last": False,
            }
        return {
            "target": w["step1"],
            "prev": w["step0"],
            "cols": VS[:2],
            "attr": 2,
            "label": "l2",
            "last": True,
        }

    return build


def _left(env: HostileEnv) -> TableRef:
    return _work(env)["left"]


CASES = {
    "compose/releases.sql": Case(_ctx(), {"ids": [1, 2]}),
    "compose/deleted_count.sql": Case(_ctx(), {"release_id": 1}),
    "compose/keys.sql": Case(
        _ctx(target=lambda env: _work(env)["keys"]), {"deleting": [1]}, prepare=_prepare("keys")
    ),
    "compose/points.sql": Case(_ctx(target=lambda env: _work(env)["points"]), prepare=_prepare("points")),
    "compose/distinct_counts.sql": Case(_ctx(), prepare=_prepare("sa_domain")),
    "compose/sa_domain.sql": Case(
        _ctx(target=lambda env: _work(env)["domain"]), prepare=_prepare("sa_domain")
    ),
    "compose/value_codes.sql": Case(
        _ctx(target=lambda env: _work(env)["codes"]), prepare=_prepare("value_codes")
    ),
    "compose/cover_codes.sql": Case(
        _ctx(target=lambda env: _work(env)["cover"], cover=lambda env: _tables(env)["cover"]),
        prepare=_prepare("cover_codes"),
    ),
    "compose/class_masks.sql": Case(
        _ctx(target=lambda env: _work(env)["masks"]), prepare=_prepare("class_masks")
    ),
    "compose/classes.sql": Case(_ctx(target=lambda env: _work(env)["classes"]), prepare=_prepare("classes")),
    "compose/covering.sql": Case(lambda env: {**_ctx()(env), **_covering(1)(env)}, prepare=_prepare("step1")),
    "compose/units.sql": Case(
        _ctx(target=lambda env: _work(env)["units"], pairs=lambda env: _work(env)["step1"]),
        prepare=_prepare("units"),
    ),
    "compose/unit_masks.sql": Case(
        _ctx(
            target=lambda env: _work(env)["unit masks"],
            units=lambda env: _work(env)["units"],
            pairs=lambda env: _work(env)["step1"],
        ),
        prepare=_prepare("unit_masks"),
    ),
    "compose/shared_counts.sql": Case(_ctx(), prepare=_prepare("membership")),
    "compose/combos.sql": Case(_ctx(target=lambda env: _work(env)["combos"]), prepare=_prepare("combos")),
    "compose/driving.sql": Case(_ctx(target=lambda env: _work(env)["driving"]), prepare=_prepare("driving")),
    "compose/words.sql": Case(_ctx(target=lambda env: _work(env)["words"]), prepare=_prepare("words")),
    "compose/membership.sql": Case(
        _ctx(target=lambda env: _work(env)["membership"]), prepare=_prepare("membership")
    ),
    "compose/shared.sql": Case(_ctx(target=lambda env: _work(env)["shared"]), prepare=_prepare("shared")),
    "compose/values_left.sql": Case(_ctx(target=_left), prepare=_prepare("values_left")),
    "compose/summary.sql": Case(
        _ctx(values=_left),
        {"ls": [2, 3]},
        prepare=_prepare("done"),
        unordered_lists=True,
    ),
    "compose/worst.sql": Case(_ctx(values=_left), {"worst": 3}, prepare=_prepare("done")),
    "compose/pair_units.sql": Case(
        _ctx(target=lambda env: _work(env)["own"], values=_left), {"most": 4}, prepare=_prepare("pair_units")
    ),
    "compose/pair_counts.sql": Case(
        _ctx(values=_left, own=lambda env: _work(env)["own"], only=None),
        {"ls": [2, 3], "most": 3},
        prepare=_prepare("done"),
    ),
}
