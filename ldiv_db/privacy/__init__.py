"""Privacy models (SPEC §0.2, §2.1, §3, §4, §5): one module each, built by name with :func:`build_model`."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.options import exact
from ..errors import BadInput
from ..taxonomy.weights import sensitivity_weights, uniform_weights
from .base import PrivacyModel, check_ls
from .closeness import TCloseness
from .combined import AllOf
from .disclosure import DeltaDisclosure
from .distinct import Distinct
from .entropy import Entropy
from .frequency import Frequency
from .k_anonymity import KAnonymity
from .l_alpha import LAlpha
from .l_plus import LPlus, sensitivity_thresholds
from .likeness import BetaLikeness
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
    "t-closeness",
    "delta-disclosure",
    "beta-likeness",
)
DISTRIBUTION_MODELS = ("t-closeness", "delta-disclosure", "beta-likeness")
# the class of each model name: its module's first paragraph is the model's definition and paper
_CLASSES: dict[str, type[PrivacyModel]] = {
    "k-anonymity": KAnonymity, "distinct": Distinct, "entropy": Entropy, "recursive": Recursive,
    "frequency": Frequency, "unique-distinct": UniqueDistinct, "lplus": LPlus, "distinct-alpha": LAlpha,
    "entropy-alpha": LAlpha, "recursive-alpha": LAlpha, "t-closeness": TCloseness,
    "delta-disclosure": DeltaDisclosure, "beta-likeness": BetaLikeness,
}  # fmt: skip

__all__ = [
    "DISTRIBUTION_MODELS",
    "MODELS",
    "AllOf",
    "BetaLikeness",
    "DeltaDisclosure",
    "Distinct",
    "Entropy",
    "Frequency",
    "KAnonymity",
    "LAlpha",
    "LPlus",
    "PrivacyModel",
    "Recursive",
    "TCloseness",
    "UniqueDistinct",
    "build_model",
    "definitions",
    "exact",
    "sensitivity_thresholds",
    "sensitivity_weights",
    "uniform_weights",
]


def definitions(name: str | None) -> list[tuple[str, str]]:
    """Each model of ``name`` (one, or a combination as ``distinct+t-closeness`` / ``distinct,t-closeness``)
    with its definition and the paper it comes from: the first paragraph of its module's docstring, the
    text the report's footnotes and the generated reference both show. Unknown names are left out."""
    out = []
    for part in (name or "").replace("+", ",").split(","):
        key = part.strip().lower()
        cls = _CLASSES.get(key)
        doc = sys.modules[cls.__module__].__doc__ if cls is not None else None
        if doc:
            out.append((key, " ".join(doc.strip().split("\n\n")[0].split())))
    return out


def _ls(l: int | Sequence[int] | None, n_sa: int, model: str) -> tuple[int, ...]:
    if l is None:
        raise BadInput(f"the {model} model needs l", "give --l, e.g. --l 3 (or one per SA: --l 5,3)")
    values = [l] if isinstance(l, int) else list(l)
    return check_ls(values, n_sa)


@dataclass(frozen=True)
class ModelParams:
    """A model's parameters as :class:`~ldiv_db.privacy.spec.ModelSpec` validated them (each model reads
    its own), with what the inputs tell the distribution models: the SAs' numeric kinds, the table and
    the SA names."""

    l: int | Sequence[int] | None = None
    c: Any = None
    k: int | None = None
    alpha: Any = None
    thresholds: Mapping[str, Any] | None = None
    sensitivity: bool = False
    categories: Mapping[str, int] | None = None
    weights: Any = None
    beta: Any = None
    entropy_over: str = "categories"
    t: Any = None
    distance: str | None = None
    sa_order: Sequence[str] | None = None
    delta: Any = None
    delta_variant: str | None = None
    likeness: str | None = None
    numeric: Sequence[bool] = ()
    table: str | None = None
    sa_names: Sequence[str] = ()


ALPHA_MODELS = ("distinct-alpha", "entropy-alpha", "recursive-alpha")  # the models of sensitivity categories


def _spelled(name: str) -> str:
    """A model name as the models are keyed: trimmed, lower case, hyphens for underscores."""
    return name.strip().lower().replace("_", "-")


def takes_categories(name: str) -> bool:
    """Whether the model ``name`` (or one of several, comma-separated) reads sensitivity categories."""
    return any(_spelled(n) in ALPHA_MODELS for n in name.split(","))


def build_model(name: str, n_sa: int = 1, params: ModelParams = ModelParams()) -> PrivacyModel:
    """Build a privacy model by name, validating its parameters (clear errors for bad input). Several
    names separated by commas (``distinct,t-closeness``) build their conjunction (:class:`AllOf`)."""
    names = [n for n in name.split(",") if n.strip()]
    if len(names) > 1:
        if (
            params.beta is not None
            and any(n.strip().lower().startswith("beta") for n in names)
            and params.weights == "sensitivity"
        ):
            raise BadInput(
                "beta is both β-likeness's β and the sensitivity weights' β here",
                "combine beta-likeness with an (l,α) model of explicit or uniform weights",
            )
        return AllOf([build_model(n, n_sa, params) for n in names])
    return _one_model(name, n_sa, params)


def _one_model(name: str, n_sa: int, p: ModelParams) -> PrivacyModel:
    l, c, k, alpha = p.l, p.c, p.k, p.alpha
    thresholds, sensitivity, categories = p.thresholds, p.sensitivity, p.categories
    weights, beta, entropy_over = p.weights, p.beta, p.entropy_over
    key = _spelled(name)
    aliases = {"eligible": "frequency", "l-eligible": "frequency", "k": "k-anonymity", "l+": "lplus"}
    aliases.update({"t": "t-closeness", "delta": "delta-disclosure", "beta": "beta-likeness"})
    key = aliases.get(key, key)
    if key in DISTRIBUTION_MODELS:
        return _distribution(key, n_sa, p)
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
    if key in ALPHA_MODELS:
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
            beta=2 if beta is None else beta,
            c=c,
            entropy_over=entropy_over,
        )
    raise BadInput(f"unknown privacy model {name!r}", f"the models are: {', '.join(MODELS)}")


def _distribution(key: str, n_sa: int, p: ModelParams) -> PrivacyModel:
    if key == "t-closeness":
        return TCloseness(
            n_sa,
            p.t,
            p.distance or "equal",
            numeric=p.numeric or (),
            sa_order=p.sa_order,
            table=p.table,
            sa_names=p.sa_names or (),
        )
    if key == "delta-disclosure":
        return DeltaDisclosure(n_sa, p.delta, p.delta_variant or "paper")
    return BetaLikeness(n_sa, p.beta, p.likeness or "basic")
