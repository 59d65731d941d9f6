"""Privacy models (SPEC §0.2, §2.1, §3, §4, §5): one module each, built by name with :func:`build_model`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.options import exact
from ..errors import BadInput
from ..taxonomy.weights import sensitivity_weights, uniform_weights
from .base import PrivacyModel, check_ls
from .distinct import Distinct
from .entropy import Entropy
from .frequency import Frequency
from .k_anonymity import KAnonymity
from .l_alpha import LAlpha
from .l_plus import LPlus, sensitivity_thresholds
from .recursive import Recursive
from .unique_distinct import UniqueDistinct

MODELS = (
    "k-anonymity",
    "distinct",
    "entropy",
    "recursive",
    "frequency",
    "unique-distinct",
    "lplus",
    "distinct-alpha",
    "entropy-alpha",
    "recursive-alpha",
)

__all__ = [
    "MODELS",
    "Distinct",
    "Entropy",
    "Frequency",
    "KAnonymity",
    "LAlpha",
    "LPlus",
    "PrivacyModel",
    "Recursive",
    "UniqueDistinct",
    "build_model",
    "exact",
    "sensitivity_thresholds",
    "sensitivity_weights",
    "uniform_weights",
]


def _ls(l: int | Sequence[int] | None, n_sa: int, model: str) -> tuple[int, ...]:
    if l is None:
        raise BadInput(f"the {model} model needs l", "give --l, e.g. --l 3 (or one per SA: --l 5,3)")
    values = [l] if isinstance(l, int) else list(l)
    return check_ls(values, n_sa)


def build_model(
    name: str,
    n_sa: int = 1,
    *,
    l: int | Sequence[int] | None = None,
    c: Any = None,
    k: int | None = None,
    alpha: Any = None,
    thresholds: Mapping[str, Any] | None = None,
    sensitivity: bool = False,
    categories: Mapping[str, int] | None = None,
    weights: Any = None,
    beta: Any = 2,
    entropy_over: str = "categories",
) -> PrivacyModel:
    """Build a privacy model by name, validating its parameters (clear errors for bad input)."""
    key = name.strip().lower().replace("_", "-")
    aliases = {"eligible": "frequency", "l-eligible": "frequency", "k": "k-anonymity", "l+": "lplus"}
    key = aliases.get(key, key)
    if key == "k-anonymity":
        if k is None:
            raise BadInput("the k-anonymity model needs k", "give --k, e.g. --k 5")
        return KAnonymity(k)
    if key == "distinct":
        return Distinct(_ls(l, n_sa, key))
    if key == "entropy":
        return Entropy(_ls(l, n_sa, key))
    if key == "recursive":
        return Recursive(_ls(l, n_sa, key), c)
    if key == "frequency":
        return Frequency(_ls(l, n_sa, key))
    if key == "unique-distinct":
        return UniqueDistinct(_ls(l, n_sa, key))
    if key == "lplus":
        ls = _ls(l, n_sa, key) if l is not None else None
        return LPlus(ls, thresholds, sensitivity)
    if key in ("distinct-alpha", "entropy-alpha", "recursive-alpha"):
        if not categories:
            raise BadInput(
                f"the {key} model needs sensitivity categories",
                "give --categories FILE (CSV value;category, 1 = most sensitive), or store them once: "
                "ldiv hierarchy import-categories DB --table T --column SA FILE",
            )
        return LAlpha(
            key.removesuffix("-alpha"),
            _ls(l, n_sa, key),
            alpha,
            categories,
            weights=weights,
            beta=beta,
            c=c,
            entropy_over=entropy_over,
        )
    raise BadInput(f"unknown privacy model {name!r}", f"the models are: {', '.join(MODELS)}")
