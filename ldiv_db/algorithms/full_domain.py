"""Full-domain generalization at given hierarchy levels (one level per QI, as ARX's transformations),
with the rows of groups the privacy model rejects deleted up to a suppression limit.

It applies a transformation the user chose (or another tool found), so its result can be verified and
measured beside that tool's: e.g. ARX's optimal distinct-3 transformation of Adult."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import BadInput
from ..evaluator import SqlEvaluator
from ..options import Option, per_qi
from ..render import Ident, render
from .base import Algorithm, AnonymizeRequest, Partitioning


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
    default_model = "distinct"
    summary = "apply one hierarchy level per QI; delete the rows of violating groups (up to a limit)"
    options = (
        LEVELS,
        Option(
            "suppression_limit",
            "number",
            "full-domain: largest share of rows that may be deleted",
            default=Fraction(0),
            low=0,
            high=1,
        ),
    )

    def check(self, request: AnonymizeRequest) -> None:
        self._levels(request)

    def _levels(self, request: AnonymizeRequest) -> tuple[dict[str, int], list[str], list[int]]:
        """The level, label kind and hierarchy id per QI; a level needs a hierarchy that has it."""
        inputs = request.inputs
        levels = parse_levels(request.options.get("levels"), [c.name for c in inputs.qi])
        kinds: list[str] = []
        hids: list[int] = []
        heights = request.heights
        for col in inputs.qi:
            level = levels[col.name]
            hid = request.hierarchy_ids.get(col.name)
            if level == 0:
                kinds.append("value")
                hids.append(hid or 0)
                continue
            if hid is None:
                raise BadInput(
                    f"QI {col.name!r} has no hierarchy, so it cannot be generalized to level {level}",
                    f"import one: ldiv hierarchy import DB --table {inputs.table.name} --column '{col.name}' FILE",
                )
            height = heights.get(col.name)
            if height is not None and not 0 <= level < height:
                raise BadInput(
                    f"level {level} of {col.name!r} is outside 0..{height - 1}",
                    f"the hierarchy of {col.name!r} has levels 0 (the values) to {height - 1} (its root)",
                )
            kinds.append("hierarchy")
            hids.append(hid)
        return levels, kinds, hids

    def run(self, request: AnonymizeRequest) -> Partitioning:
        db, inputs = request.db, request.inputs
        qi = [c.name for c in inputs.qi]
        levels, kinds, hids = self._levels(request)
        limit: Fraction = request.options["suppression_limit"]
        labels = db.work_table("fd_labels")
        db.run(
            render(
                "release/labels_levels.sql",
                {"hids": hids, "levels": [levels[q] for q in qi]},
                target=labels,
                source=inputs.table.ref,
                qi=[c.ident for c in inputs.qi],
                sa=[c.ident for c in inputs.sa],
                kinds=kinds,
            )
        )
        keys = [Ident(f"q{i}") for i in range(1, len(qi) + 1)]
        ev = SqlEvaluator(
            db, labels, keys, [Ident(f"a{i}") for i in range(1, len(inputs.sa) + 1)], prefix="fd"
        )
        ev.build()
        verdict = ev.work("verdict")
        request.model.apply(ev, verdict)
        assignment = db.work_table("fd_assignment")
        db.run(
            render(
                "full_domain/assign.sql",
                target=assignment,
                labels=labels,
                verdict=verdict,
                qi=keys,
                exact_ids=ev.exact_ids,
            )
        )
        deleted = int(db.scalar(render("full_domain/deleted_count.sql", assignment=assignment)))
        if deleted > limit * inputs.rows:
            raise BadInput(
                f"these levels leave {deleted} rows ({100 * deleted / inputs.rows:.2f}%) in groups that violate "
                f"{request.model.describe()}, above the suppression limit of {float(limit) * 100:g}%",
                "generalize further (higher levels) or allow more suppression with --suppression-limit",
            )
        return Partitioning(
            assignment=assignment,
            recoding="labels",
            labels=labels,
            levels=levels,
            details={"levels": levels, "deleted_rows": deleted},
        )
