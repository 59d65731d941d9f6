"""The contract between the anonymize pipeline and an algorithm.

An algorithm receives an :class:`AnonymizeRequest` (resolved source, QIs, SAs, privacy model,
hierarchies, options, progress) and returns a :class:`Partitioning`: a work table
``assignment(rid, gid, deleted, sa_suppressed)`` covering every source row exactly once, plus how the
published QI labels are formed. The pipeline writes, records, reconciles and verifies the release; an
algorithm never writes outputs itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from ..options import Option

if TYPE_CHECKING:
    from ..catalog import Column
    from ..db import Database
    from ..guarantees import Guarantee
    from ..inputs import Inputs
    from ..privacy import PrivacyModel
    from ..progress import Progress
    from ..render import TableRef
    from ..taxonomy import Hierarchy

Recoding = Literal["lca", "suppress", "levels", "labels"]
LabelKind = Literal["hierarchy", "numeric", "flat"]


def lca_kinds(qi: Sequence[Column], hierarchy_ids: Mapping[str, int]) -> list[LabelKind]:
    """How the 'lca' recoding publishes each QI (SPEC §0.5): numeric columns as 'lo-hi' ranges,
    categorical columns with a hierarchy by the LCA, the others flat (the value or '*'). Algorithms that
    price their groups (BSGI, Mondrian) use the same rule, so their IL is the published one."""
    out: list[LabelKind] = []
    for c in qi:
        if c.is_numeric:
            out.append("numeric")
        elif c.name in hierarchy_ids:
            out.append("hierarchy")
        else:
            out.append("flat")
    return out


def lca_hierarchy_ids(qi: Sequence[Column], hierarchy_ids: Mapping[str, int]) -> list[int]:
    """The ldiv.hierarchy id per QI for the templates' ``$hids`` (0 where the QI is not published by LCA)."""
    kinds = lca_kinds(qi, hierarchy_ids)
    return [hierarchy_ids.get(c.name, 0) if k == "hierarchy" else 0 for c, k in zip(qi, kinds, strict=True)]


def stored_hierarchies(request: AnonymizeRequest, why: str) -> tuple[list[int], list[Hierarchy]]:
    """Every QI's stored hierarchy (its ldiv.hierarchy id and model), for algorithms that generalize
    every QI along one; a QI without one is a BadInput saying ``why`` the algorithm needs it."""
    from .. import taxonomy
    from ..errors import BadInput

    db, inputs = request.db, request.inputs
    hids: list[int] = []
    hierarchies: list[Hierarchy] = []
    for col in inputs.qi:
        hid = request.hierarchy_ids.get(col.name)
        h = taxonomy.load(db, inputs.table.name, col.name) if hid is not None else None
        if hid is None or h is None:
            raise BadInput(
                f"QI {col.name!r} has no hierarchy; {why}",
                f"import one: ldiv hierarchy import DB --table {inputs.table.name} --column '{col.name}' FILE "
                "(or build one for a numeric column: ldiv hierarchy build ... --intervals 5,10,20)",
            )
        hids.append(hid)
        hierarchies.append(h)
    return hids, hierarchies


@dataclass
class AnonymizeRequest:
    db: Database
    inputs: Inputs
    model: PrivacyModel
    hierarchy_ids: Mapping[str, int]  # QI column name -> ldiv.hierarchy id (absent: no hierarchy)
    options: Mapping[str, Any]  # the algorithm's declared options, validated, defaults filled in
    progress: Progress
    seed: int | None = None
    class_column: str | None = None  # the class column (CM metric), as spelled by the user
    heights: Mapping[str, int] = field(default_factory=dict)  # QI column name -> its hierarchy's height


@dataclass
class Partitioning:
    """An algorithm's result. ``labels`` is required for recoding 'labels' (rid, q1..qd)."""

    assignment: TableRef
    recoding: Recoding
    levels: Mapping[str, int] = field(default_factory=dict)
    labels: TableRef | None = None
    details: dict[str, Any] = field(default_factory=dict)
    verify_model: PrivacyModel | None = None  # defaults to the request's model
    metric_weights: Sequence[Fraction] | None = None  # QI weights of the reported IL/NCP (default 1 each)
    guarantees: Sequence[Guarantee] = ()  # promises beyond the model, verified on the written release


class Algorithm(ABC):
    """One anonymization algorithm. ``options`` declares its options once (:class:`~ldiv_db.options.Option`:
    name, type, range, default, help); the ``ldiv anonymize`` flags, ``--option`` keys, job-file keys and
    API keywords are generated from it, and ``run`` finds every declared option in ``request.options``,
    validated, with its default when not given. Two algorithms may declare the same name only with the
    same declaration."""

    name: str = ""
    default_model: str = "distinct"
    summary: str = ""
    options: tuple[Option, ...] = ()
    # True: the QIs are generalized through their stored hierarchies, where a NULL has no node (the
    # pipeline refuses NULLs in such a QI up front, with the way to give NULL a place)
    generalizes_by_hierarchy: bool = False

    def check(self, request: AnonymizeRequest) -> None:
        """Check the options against the data (names, levels against heights) before the run is recorded,
        so a refused call writes nothing. Options naming QIs or columns are checked by the pipeline."""
        return None

    @abstractmethod
    def run(self, request: AnonymizeRequest) -> Partitioning: ...

    def output_tables(self, out: TableRef) -> tuple[TableRef, ...]:
        """The tables a release named ``out`` writes (checked by ldiv_db/ownership.py before the run)."""
        return (out,)
