"""The privacy model as the user names it: :class:`ModelSpec`, parsed once at the edge (command line, job
file, API) from the declared :data:`MODEL_OPTIONS`, and built into a :class:`PrivacyModel` once the
inputs are resolved. ``l`` is read here and nowhere else."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.inputs import parse_thresholds
from ..core.options import Option, Source, match_names, parse_int, parse_number, validate
from ..errors import BadInput
from ..sqlgen.render import render
from ..taxonomy.categories import read_categories
from . import MODELS, ModelParams, PrivacyModel, build_model, takes_categories
from .base import sql_text

if TYPE_CHECKING:
    from ..core.inputs import Inputs
    from ..db import Database

Ls = int | list[int] | str | None  # one l, one per SA, or "auto"


def parse_l(value: Any, what: str = "l", text: bool = True) -> Ls:
    """``l``: an integer >= 2, one per SA (``5,3,2`` or a list), or ``auto`` (anonymize only)."""
    if value is None:
        return None
    if isinstance(value, str):
        if value.strip().lower() == "auto":
            return "auto"
        if not text:  # a typed source (a job file): a number is a TOML integer, never text
            raise BadInput(
                f'{what} must be an integer >= 2, a list of them (one per SA) or "auto", got {value!r} (text)',
                f"write {what} = {value.strip()} (a TOML integer, without quotes)",
            )
        parts = [p.strip() for p in value.split(",")]
        nums = [parse_int(p, what, low=2, text=True) for p in parts]
    elif isinstance(value, (list, tuple)):
        if not value:
            raise BadInput(f"{what} is an empty list", "give one l per SA, e.g. [5, 3, 2]")
        return [parse_int(v, f"{what} entry", low=2, text=text) for v in value]  # a list stays a list
    else:
        nums = [parse_int(value, what, low=2)]
    return nums[0] if len(nums) == 1 else nums


def _thresholds(value: Any, what: str, text: bool) -> dict[str | None, Fraction]:
    """l+ thresholds: a file (CSV value;theta), inline ``v1=0.3,v2=1/4``, or a mapping value -> theta."""

    if not isinstance(value, (str, Mapping)) or (isinstance(value, str) and not value.strip()):
        raise BadInput(
            f"{what} must be a file, value=theta pairs or a table of values, got {value!r}",
            "e.g. --thresholds Flu=0.5,HIV=1/4 (theta in [0, 1])",
        )
    raw = parse_thresholds(value)
    assert raw is not None
    # keys as the statistics spell SA values (True -> 'true'); None is the NULL value (--null-as-value)
    typed = not text and isinstance(value, Mapping)  # a job file's table of values: TOML numbers
    return {
        sql_text(k): parse_number(v, f"{what} of {k!r}", low=0, high=1, text=not typed)
        for k, v in raw.items()
    }


def _category_weights(value: Any, what: str, text: bool) -> str | dict[int, Fraction]:
    """(l,alpha) category weights: ``uniform``, ``sensitivity`` or explicit ``1=0,2=1/3,...``."""
    if isinstance(value, str) and value.strip().lower() in ("uniform", "sensitivity"):
        return value.strip().lower()
    hint = "use uniform, sensitivity or rank=weight pairs: 1=0,2=1/3,3=2/3,4=1"
    items: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, str) and value.strip():
        items = []
        for part in value.split(","):
            if "=" not in part:
                raise BadInput(f"cannot read {what} {value!r}", hint)
            k, v = part.split("=", 1)
            items.append((k.strip(), v.strip()))
    else:
        raise BadInput(f"{what} must be uniform, sensitivity or rank=weight pairs, got {value!r}", hint)
    out: dict[int, Fraction] = {}
    for k, v in items:
        if isinstance(k, bool) or not (isinstance(k, int) or (isinstance(k, str) and k.strip().isdigit())):
            raise BadInput(
                f"{what} names {k!r}, which is not a category rank", "ranks are 1, 2, ..., K" + "; " + hint
            )
        rank = int(k)
        if rank < 1 or rank in out:
            raise BadInput(f"{what} names rank {k!r} {'twice' if rank in out else 'below 1'}", hint)
        typed = not text and isinstance(value, Mapping)  # a job file's table: TOML numbers
        out[rank] = parse_number(v, f"{what} of category {rank}", low=0, high=10**6, text=not typed)
    return out


def _categories(value: Any, what: str, text: bool) -> str | dict[Any, int]:
    if isinstance(value, (str, Path)) and str(value).strip():
        return str(value).strip()
    if isinstance(value, Mapping) and value:
        return {k: parse_int(v, f"{what} of {k!r}", low=1) for k, v in value.items()}
    raise BadInput(
        f"{what} must be a file (value;category) or a map value -> rank, got {value!r}",
        "ranks are 1, 2, ..., K with 1 = most sensitive",
    )


def _model_name(value: Any, what: str, text: bool) -> str:
    """A model's name, or several (a list, or names separated by commas) that must hold at once."""
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) and v.strip() for v in value):
        value = ",".join(v.strip() for v in value)
    if not isinstance(value, str) or not value.strip():
        raise BadInput(
            f"{what} must be the name of a model, got {value!r}", f"the models are: {', '.join(MODELS)}"
        )
    return ",".join(n.strip() for n in value.split(",") if n.strip())


def _sa_order(value: Any, what: str, text: bool) -> list[str]:
    """The SA's values lowest first: ``v1,v2,...`` or a list."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not items or any(not str(v).strip() for v in items):
        raise BadInput(
            f"{what} must list the SA's values lowest first, got {value!r}", "e.g. --sa-order low,mid,high"
        )
    out = [str(v).strip() for v in items]
    if len(set(out)) != len(out):
        raise BadInput(f"{what} names a value twice", "list every value of the SA once, lowest first")
    return out


MODEL_OPTIONS: tuple[Option, ...] = (
    Option("model", "text", "privacy model: " + ", ".join(MODELS), parser=_model_name, label="a model name"),
    Option(
        "l",
        "text",
        "l of the model (anonymize: auto = the largest feasible l)",
        parser=parse_l,
        label="integer in [2, 2^31-1], or one per SA: 5,3,2",
    ),
    Option("c", "number", "c of recursive (c,l)-diversity", low=0, low_open=True, high=10**6),
    Option("k", "int", "k of k-anonymity", low=1),
    Option("alpha", "number", "alpha of the (l,alpha) models: the least row weight of a group", low=0),
    Option(
        "thresholds",
        "text",
        "l+ thresholds: FILE (value;theta) or v1=0.3,v2=1/4; every value must be one of the SA",
        parser=_thresholds,
        label="theta in [0, 1] per SA value",
    ),
    Option("sensitivity", "flag", "l+ thresholds derived from value frequencies", default=False),
    Option(
        "categories",
        "text",
        "sensitivity categories FILE (value;category, 1 = most sensitive); default: the stored ones",
        parser=_categories,
        label="a file",
    ),
    Option(
        "weights",
        "text",
        "(l,alpha) category weights: uniform, sensitivity, or rank=weight (1=0,2=1/3,...)",
        parser=_category_weights,
        label="uniform|sensitivity|rank=weight,... (weights in [0, 10^6])",
        cli="category-weights",
    ),
    Option(
        "beta",
        "number",
        "beta of beta-likeness (> 0), or of the (l,alpha) sensitivity weights (in [1, 16], default 2)",
        low=0,
        high=10**6,
    ),
    Option(
        "t", "number", "t of t-closeness: the largest EMD to the whole input's SA distribution", low=0, high=1
    ),
    Option(
        "distance",
        "choice",
        "t-closeness ground distance: equal, ordered (numeric SA or --sa-order), hierarchical (the SA's hierarchy)",
        default="equal",
        choices=("equal", "ordered", "hierarchical"),
    ),
    Option(
        "sa_order",
        "text",
        "the SA's values lowest first, for --distance ordered on a text SA: v1,v2,...",
        parser=_sa_order,
        label="v1,v2,...",
    ),
    Option(
        "delta",
        "number",
        "delta of delta-disclosure: |ln(p(s|class)/p(s))| < delta",
        low=0,
        low_open=True,
        high=10**6,
    ),
    Option(
        "delta_variant",
        "choice",
        "delta-disclosure: paper (natural log, an absent value fails) or arx (log2, absent values ignored)",
        default="paper",
        choices=("paper", "arx"),
    ),
    Option(
        "likeness",
        "choice",
        "beta-likeness: basic, or enhanced (the gain also at most -ln p(s))",
        default="basic",
        choices=("basic", "enhanced"),
    ),
    Option(
        "entropy_over",
        "choice",
        "entropy (l,alpha) over",
        default="categories",
        choices=("categories", "values"),
    ),
)


_DEFAULTS: dict[str, Any] = {o.name: o.default for o in MODEL_OPTIONS}


@dataclass(frozen=True)
class ModelSpec:
    """A privacy model's name and validated parameters (``l`` as given: one int, one per SA, or "auto")."""

    name: str | None
    l: Ls = None
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, values: Mapping[str, Any], source: Source, prefix: str = "") -> ModelSpec:
        """Validate ``model``, ``l`` and the model options (c, k, alpha, thresholds, ...) from one source."""
        v = validate(MODEL_OPTIONS, values, source, "model options", prefix)
        name, l = v.pop("model"), v.pop("l")
        return cls(name, l, v)

    def with_l(self, l: Ls) -> ModelSpec:
        return replace(self, l=l)

    def with_name(self, name: str) -> ModelSpec:
        return replace(self, name=name)

    def build(self, inputs: Inputs) -> PrivacyModel | None:
        """The privacy model for the resolved inputs (stored categories are used when none are given)."""

        if self.name is None:
            given = [
                k for k, v in {"l": self.l, **self.params}.items() if v is not None and v != _DEFAULTS[k]
            ]
            if given:
                raise BadInput(
                    f"{', '.join(given)} given without a model: a model's parameters need the model",
                    f"add --model (e.g. --model distinct) or drop {', '.join(given)}",
                )
            return None
        if self.l == "auto":
            raise BadInput(
                "l = auto picks the largest feasible l for a new release", "give l as numbers here"
            )
        p = dict(self.params)
        cats = p.pop("categories")
        cats = read_categories(cats) if isinstance(cats, str) else cats
        if cats is None and takes_categories(self.name):  # those stored (ldiv hierarchy import-categories)
            cats = inputs.categories
        return build_model(
            self.name,
            len(inputs.sa),
            ModelParams(
                l=self.l,  # type: ignore[arg-type]
                categories=cats,
                numeric=[c.is_numeric for c in inputs.sa],
                table=inputs.table.name,
                sa_names=[c.name for c in inputs.sa],
                **p,
            ),
        )

    def check_values(self, db: Database, inputs: Inputs, *, strict: bool = True) -> None:
        """Explicit l+ thresholds must name values of the SA, spelled as the data spells them. ``strict``
        (anonymize, on the source): every value must exist. Otherwise (check, which may read a release
        whose rows of a value were deleted): a value that exists only in another case is refused."""

        thresholds = self.params.get("thresholds")
        if not thresholds or len(inputs.sa) != 1:
            return
        col = inputs.sa[0]
        rows = db.rows(render("catalog/sa_counts.sql", source=inputs.table.ref, sa=col.ident))
        real = [str(r[0]) for r in rows if r[0] is not None]
        named = [v for v in thresholds if v is not None]
        if not strict:
            exact, lowered = set(real), {r.strip().lower() for r in real}
            named = [v for v in named if v not in exact and v.strip().lower() in lowered]
        match_names(
            named,
            real,
            f"a value of the SA {col.name!r}",
            "--thresholds",
            real_are=f"the values of {col.name!r} are",
            case_sensitive=True,
        )


def model_spec(
    model: str | ModelSpec | None, l: Any = None, model_options: Mapping[str, Any] | None = None
) -> ModelSpec:
    """The API's model keywords as one :class:`ModelSpec`: a spec as given, or parsed from the name,
    ``l`` and the model options (the API's typed values; unknown keys are errors)."""
    if isinstance(model, ModelSpec):
        if l is not None or model_options:
            raise BadInput(
                "l or model options are given beside a ModelSpec", "give them inside the ModelSpec"
            )
        return model
    values = dict(model_options or {})
    for key, value in (("model", model), ("l", l)):
        if value is not None:
            if key in values:
                raise BadInput(
                    f"{key} is given twice (as a keyword and in the model options)", "give it once"
                )
            values[key] = value
    return ModelSpec.parse(values, "api")
