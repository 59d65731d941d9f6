"""The algorithm registry: each algorithm is one module here plus its SQL folder."""

from __future__ import annotations

from ..core.options import Option, did_you_mean
from ..errors import BadInput, InternalError
from .base import Algorithm, AnonymizeRequest, Partitioning
from .bsgi import Bsgi
from .decomposition import Decomposition
from .full_domain import FullDomain
from .hilbert import Hilbert
from .lplus import LPlusOptimize
from .mondrian import Mondrian
from .optimal import Optimal
from .topdown import TopDown
from .tp import TP, TPPlus

REGISTRY: dict[str, type[Algorithm]] = {}


def register(cls: type[Algorithm]) -> type[Algorithm]:
    REGISTRY[cls.name] = cls
    return cls


register(FullDomain)
register(Bsgi)
register(Mondrian)
register(TP)
register(TPPlus)
register(Hilbert)
register(TopDown)
register(Decomposition)
register(LPlusOptimize)
register(Optimal)


def get_algorithm(name: str) -> Algorithm:
    if not isinstance(name, str):
        raise BadInput(f"algorithm must be a name, got {name!r}", f"available: {', '.join(sorted(REGISTRY))}")
    key = name.strip().lower()
    if key not in REGISTRY:
        raise BadInput(
            f"unknown algorithm {name!r}",
            f"{did_you_mean(key, sorted(REGISTRY))}available: {', '.join(sorted(REGISTRY))}",
        )
    return REGISTRY[key]()


def declarations() -> dict[str, list[Option]]:
    """Every algorithm's options by name, each distinct declaration once. Two algorithms may declare one
    name differently only with the same kind (lplus's and optimal's ``--metric`` take other choices):
    the command line then has one flag, and each algorithm's own declaration validates its value."""
    out: dict[str, list[Option]] = {}
    for cls in REGISTRY.values():
        for opt in cls.options:
            have = out.setdefault(opt.name, [])
            if have and have[0].kind != opt.kind:
                raise InternalError(
                    f"option {opt.name!r} is declared with two kinds ({have[0].kind}, {opt.kind})"
                )
            if opt not in have:
                have.append(opt)
    return out


def declared_options() -> dict[str, Option]:
    """Every algorithm's options by name (the first declaration of each name)."""
    return {name: opts[0] for name, opts in declarations().items()}


__all__ = [
    "REGISTRY",
    "Algorithm",
    "AnonymizeRequest",
    "Partitioning",
    "declarations",
    "declared_options",
    "get_algorithm",
    "register",
]
