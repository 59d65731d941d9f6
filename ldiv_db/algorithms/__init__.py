"""The algorithm registry: each algorithm is one module here plus its SQL folder."""

from __future__ import annotations

from ..errors import BadInput, InternalError
from ..options import Option, did_you_mean
from .base import Algorithm, AnonymizeRequest, Partitioning
from .bsgi import Bsgi
from .decomposition import Decomposition
from .full_domain import FullDomain
from .hilbert import Hilbert
from .lplus import LPlusOptimize
from .mondrian import Mondrian
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


def declared_options() -> dict[str, Option]:
    """Every algorithm's options by name; two algorithms may share a name only with one declaration."""
    out: dict[str, Option] = {}
    for cls in REGISTRY.values():
        for opt in cls.options:
            if out.setdefault(opt.name, opt) != opt:
                raise InternalError(f"option {opt.name!r} is declared twice with different meanings")
    return out


__all__ = [
    "REGISTRY",
    "Algorithm",
    "AnonymizeRequest",
    "Partitioning",
    "declared_options",
    "get_algorithm",
    "register",
]
