"""Publishing a full-domain transformation (one hierarchy level per QI, as ARX's transformations): label
every row at its levels, judge the groups with the privacy model in SQL, delete the rows of violating
groups when they fit under the suppression limit. Shared by ``full-domain`` (levels given by the user)
and ``optimal`` (levels found by the lattice search), so both publish the same release for the same
levels."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ...core.evaluator import SqlEvaluator
from ...core.options import Option
from ...errors import BadInput
from ...sqlgen.render import Ident, render
from ...verify.guarantees import MaxDeleted
from ..base import AnonymizeRequest, Partitioning

SUPPRESSION_LIMIT = Option(
    "suppression_limit",
    "number",
    "full-domain, optimal: largest share of rows that may be deleted",
    default=Fraction(0),
    low=0,
    high=1,
)


def level_kinds(request: AnonymizeRequest, levels: Mapping[str, int]) -> tuple[list[str], list[int]]:
    """The label kind and hierarchy id per QI; a level above 0 needs a hierarchy that has it."""
    inputs = request.inputs
    kinds, hids = [], []
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
    return kinds, hids


def apply_levels(request: AnonymizeRequest, levels: Mapping[str, int], limit: Fraction) -> Partitioning:
    """The partitioning of ``levels`` (every QI named): rows of groups the model rejects are deleted; more
    than ``limit`` (a share of the rows) deleted is a :class:`BadInput`."""
    db, inputs = request.db, request.inputs
    qi = [c.name for c in inputs.qi]
    kinds, hids = level_kinds(request, levels)
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
    ev = SqlEvaluator(db, labels, keys, [Ident(f"a{i}") for i in range(1, len(inputs.sa) + 1)], prefix="fd")
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
        levels=dict(levels),
        details={"levels": dict(levels), "deleted_rows": deleted},
        guarantees=(MaxDeleted(limit),),
    )
