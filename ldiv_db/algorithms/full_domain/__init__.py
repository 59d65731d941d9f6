"""Full-domain generalization at given hierarchy levels (one level per QI, as ARX's transformations),
with the rows of groups the privacy model rejects deleted up to a suppression limit.

It applies a transformation the user chose (or another tool found), so its result can be verified and
measured beside that tool's: e.g. ARX's optimal distinct-3 transformation of Adult."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...core.options import Option, per_qi
from ...errors import BadInput
from ..base import Algorithm, AnonymizeRequest, Partitioning
from .levels import SUPPRESSION_LIMIT, apply_levels, level_kinds


def parse_levels(spec: Any, qi: list[str]) -> dict[str, int]:
    """The validated ``levels`` (a map by QI name, or a list in QI order) as a level per QI (0: kept)."""
    if spec is None:
        raise BadInput("full-domain needs --levels", "e.g. --levels age=2,sex=0 (level 0 keeps a value)")
    given = per_qi(spec, qi, "--levels")
    return {q: int(given.get(q, 0)) for q in qi}


LEVELS = Option(
    "levels", "pairs", "full-domain: hierarchy level per QI, age=2,sex=0 (0 keeps a value)", low=0, high=1000
)


class FullDomain(Algorithm):
    name = "full-domain"
    generalizes_by_hierarchy = True
    default_model = "distinct"
    summary = "apply one hierarchy level per QI; delete the rows of violating groups (up to a limit)"
    options = (LEVELS, SUPPRESSION_LIMIT)

    def check(self, request: AnonymizeRequest) -> None:
        """Before the run is recorded: every level needs a hierarchy that has it."""
        level_kinds(request, parse_levels(request.options.get("levels"), [c.name for c in request.inputs.qi]))

    def run(self, request: AnonymizeRequest) -> Partitioning:
        levels = parse_levels(request.options.get("levels"), [c.name for c in request.inputs.qi])
        limit: Fraction = request.options["suppression_limit"]
        return apply_levels(request, levels, limit)
