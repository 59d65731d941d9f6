"""The algorithm registry: each algorithm is one module here plus its SQL folder."""

from __future__ import annotations

from ..errors import BadInput
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
    key = name.strip().lower()
    if key not in REGISTRY:
        raise BadInput(f"unknown algorithm {name!r}", f"available: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[key]()


__all__ = ["REGISTRY", "Algorithm", "AnonymizeRequest", "Partitioning", "get_algorithm", "register"]
