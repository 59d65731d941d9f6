"""TP, the three-phase algorithm (Xiao, Yi, Tao, EDBT 2010 §5), and TP+ (TP, then Hilbert on the residue).

What runs where (DESIGN §4: SQL works over rows, Python decides):

1. ``sql/tp/rows.sql`` — every row with its QI-group (a 64-bit hash of the QI values, checked for
   collisions; exact ids on a collision) and SA id (first appearance); ``sql/tp/cells.sql`` —
   QI-groups × SA ids with counts and phase one in closed form (every count capped at the group's H*,
   SPEC §1.4), one set-based statement on integers.
2. ``sql/tp/residue.sql`` — per SA value its total and its residue count: the l-eligibility check of T
   (SPEC §1.1) and condition (1) on R¹ (Cor. 5.9: if it holds, TP ends optimal after phase one).
3. only if R¹ is not l-eligible: ``sql/tp/kept.sql`` fetches the compact (group, value, count) state;
   phases two and three run on counts in :mod:`.core`.
4. ``sql/tp/assign.sql`` — one statement applies every move, choosing the rows with the largest row ids
   (SPEC §1.7); R becomes one group published with Definition 1 (recoding ``suppress``, SPEC §1.8).

Hence 4 statements when TP ends in phase one and 5 otherwise. TP+ adds Hilbert on R
(:func:`.hilbert.split_rows`: R's rows found from the row map and the cells, then one insert) and keeps R
whole unless the split has fewer stars (SPEC §1.12's guard); its assignment statement writes only the rows
that stay, while Hilbert-l groups R's rows in a thread, and R's rows are inserted after them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.catalog import Column
from ...errors import InternalError
from ...sqlgen.render import TableRef, render
from ...util.seeded_key import published_ids
from ..base import Algorithm, AnonymizeRequest, Partitioning
from ..hilbert.curve import Residue, Split, eligible_l, require_l_eligible, split_rows, write_group_stars
from .core import Counts, phases_two_three


@dataclass(frozen=True)
class TpRun:
    """TP's phases done: the row map, the cells and the moves of phases two and three (``residue``, which
    ``sql/tp/assign.sql`` and TP+'s split read), R's group id and size, and the run's details."""

    residue: Residue
    residue_gid: int
    residue_rows: int
    details: dict[str, Any]


def _phase_one(
    request: AnonymizeRequest, l: int, keyed: bool, sa_ids: TableRef
) -> tuple[TableRef, TableRef, list[dict[str, Any]], bool]:
    """The row map, the cells after phase one and the per-SA counts (tp/rows.sql, cells.sql, residue.sql);
    once more with exact group ids after a hash collision. Returns (rows, cells, counts, exact ids)."""
    db, inputs = request.db, request.inputs
    rows, cells = db.work_table("tp_rows"), db.work_table("tp_cells")
    for exact_ids in (False, True):
        q = render(
            "tp/rows.sql",
            {"seed": request.order_seed},
            target=rows,
            sa_ids=sa_ids,
            source=inputs.table.ref,
            qi=[c.ident for c in inputs.qi],
            sa=inputs.sa[0].ident,
            exact_ids=exact_ids,
            keyed=keyed,
            null_safe=request.null_as_value,  # else the inputs were refused if they held NULL
        )
        db.run(q)
        db.run(render("tp/cells.sql", {"l": l}, target=cells, rows=rows, keyed=keyed))
        recs = db.records(render("tp/residue.sql", cells=cells))
        if not int(recs[0]["collisions"]):
            break  # the hashed group ids are collision-free (else: once more with exact ids)
    return rows, cells, recs, exact_ids


def run_tp(request: AnonymizeRequest, l: int) -> TpRun:
    """TP's three phases (SPEC §1.4-1.8) on the request's source, up to the assignment (:func:`assign`)."""
    db, inputs = request.db, request.inputs
    sa_ids = db.work_table("tp_sa_ids")
    # the source as it is (keyed_ties): its ties fall by the seeded key; a seeded copy's by its row ids
    keyed = inputs.table.copy_of is None
    db.run(
        render(
            "tp/sa_ids.sql",
            {"seed": request.order_seed},
            target=sa_ids,
            source=inputs.table.ref,
            sa=inputs.sa[0].ident,
            keyed=keyed,
        )
    )
    rows, cells, recs, exact_ids = _phase_one(request, l, keyed, sa_ids)
    n = sum(int(r["total"]) for r in recs)
    if l * max(int(r["total"]) for r in recs) > n:
        require_l_eligible(request, l)  # raises, naming the most frequent value
        raise InternalError("TP's SA counts disagree with the table's")
    n_groups = int(recs[0]["groups"])
    # QI-groups are named by their first row's rank + 1; R after them
    residue_gid = int(recs[0]["max_gid"]) + 1
    r1: Counts = {int(r["sid"]): int(r["residue"]) for r in recs if int(r["residue"])}
    r1_rows = sum(r1.values())
    r1_height = max(r1.values(), default=0)
    moves: list[tuple[int, int, int]] = []
    if l * r1_height <= r1_rows:
        phase, residue_rows = 1, r1_rows
        kept_groups = int(recs[0]["kept_groups"])
    else:
        # the groups that keep rows, in first-appearance order (empty groups are dead: SPEC §1.3)
        state: dict[int, Counts] = {}
        for gid, sid, kept in db.rows(render("tp/kept.sql", cells=cells), bulk=True):
            state.setdefault(int(gid), {})[int(sid)] = int(kept)
        gids = list(state)
        outcome = phases_two_three([state[g] for g in gids], r1, l)
        phase, residue_rows = outcome.phase, outcome.residue_rows
        kept_groups = sum(1 for q in outcome.kept if q)
        moves = [(gids[i], v, c) for i, moved in enumerate(outcome.moved) for v, c in sorted(moved.items())]
    details = {
        "phase_ended": phase,
        "optimal_rows": phase == 1,  # Cor. 5.9: optimal for Problem 2 (fewest suppressed rows)
        "qi_groups": n_groups,
        "qi_groups_published": kept_groups,
        "residue_rows": residue_rows,
        "residue_rows_phase_one": r1_rows,
        # every l-diverse suppression keeps at most Q¹ of each group (Lemma 5.8): OPT ≥ |R¹| and ≥ l·h(R¹)
        "residue_lower_bound": max(r1_rows, l * r1_height),
        "moves_phases_two_three": sum(m[2] for m in moves),
        "exact_group_ids": exact_ids,  # True only after a hash collision of two QI vectors
    }
    return TpRun(Residue(rows, cells, moves), residue_gid, residue_rows, details)


def assign(request: AnonymizeRequest, tp: TpRun, target: TableRef, *, staying_only: bool = False) -> TableRef:
    """TP's assignment (``sql/tp/assign.sql``) as ``target``: every row, R's in group ``residue_gid``, or
    with ``staying_only`` the rows that stay in their QI-groups alone (TP+ adds R's rows itself)."""
    request.db.run(
        render(
            "tp/assign.sql",
            {**tp.residue.params(), "r_gid": tp.residue_gid},
            target=target,
            cells=tp.residue.cells,
            rows=tp.residue.rows,
            staying_only=staying_only,
        )
    )
    return target


class _Published:
    """TP+ numbers its groups by the group-id rule itself (``Partitioning.ids_published``;
    :func:`ldiv_db.util.seeded_key.published_ids`, the rule of ``pipeline/opaque.py``, over every group of
    the run: the QI-groups that keep rows and R's groups), so the pipeline neither groups the assignment to
    find them nor renumbers it and the stars. The rows that stay are written while Hilbert-l groups R in a
    thread (:meth:`beside`, with their QI-groups' ids); once R's groups are known, :meth:`publish` appends
    them to the assignment under their published ids, and R's rows follow under theirs (:func:`split_rows`).
    Without ``publishes``, the staying rows go to the assignment under TP's ids, and the pipeline
    publishes them all."""

    def __init__(self, request: AnonymizeRequest, tp: TpRun, assignment: TableRef, publishes: bool) -> None:
        self.request, self.tp, self.assignment = request, tp, assignment
        self.staying = request.db.work_table("tp_staying") if publishes else assignment
        self.qi_gids = np.zeros(0, dtype=np.int64)

    def beside(self) -> TableRef:
        db = self.request.db
        assign(self.request, self.tp, self.staying, staying_only=True)
        if self.staying == self.assignment:
            return self.assignment
        found = db.arrays(render("tp/staying_gids.sql", staying=self.staying), bulk=True)
        self.qi_gids = found["gid"].astype(np.int64, copy=False)
        db.run(render("hilbert/groups_table.sql", target=self.assignment))
        return self.assignment

    def publish(self, residue_gids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        q = len(self.qi_gids)
        pub = published_ids(np.concatenate([self.qi_gids, residue_gids]), self.request.order_seed)
        db = self.request.db
        ids = db.work_table("tp_published_ids")  # a frame's columns: no list bound as a parameter
        db.run(
            render(
                "catalog/create_columns.sql",
                target=ids,
                columns=[Column("gid", "BIGINT", 1), Column("pub", "BIGINT", 2)],
            )
        )
        db.insert_columns(ids, {"gid": self.qi_gids, "pub": pub[:q]})
        db.run(render("tp/publish_staying.sql", target=self.assignment, staying=self.staying, ids=ids))
        for done in (self.staying, ids):
            db.drop_work_table(done)
        return pub[q:]


class TP(Algorithm):
    """TP (SPEC §1): fewest suppressed rows up to a factor l; '*' suppression (Definition 1)."""

    name = "tp"
    default_model = "frequency"
    keyed_ties = True  # tp/rows.sql orders the source's rows by the seeded key: no seeded copy
    holds_memory = False  # its Python holds a few counts (phases two and three)
    summary = "TP three-phase suppression (Xiao/Yi/Tao 2010): l-eligible QI-groups plus one residue group"

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0 = time.perf_counter()
        tp = run_tp(request, eligible_l(request, self.name))
        assignment = assign(request, tp, request.db.work_table("tp_assignment"))
        details = {**tp.details, "algorithm_seconds": round(time.perf_counter() - t0, 4)}
        groups = int(tp.details["qi_groups_published"]) + (1 if tp.residue_rows else 0)
        return Partitioning(assignment=assignment, recoding="suppress", details=details, groups=groups)


class TPPlus(Algorithm):
    """TP+ (SPEC §1.12): TP, then the residue cut into l-eligible groups along a Hilbert curve."""

    name = "tp+"
    default_model = "frequency"
    keyed_ties = True  # as TP; the residue's Hilbert ties too (tp/rows.sql's tie order)
    holds_memory = False  # and the residue's columns, local to the split (hilbert/curve.py: split_rows)
    publishes_ids = True  # R's groups and the QI-groups beside them numbered by the rule (_Published)
    summary = "TP, then the residue split by the Hilbert heuristic when that saves stars"

    def run(self, request: AnonymizeRequest) -> Partitioning:
        t0 = time.perf_counter()
        l = eligible_l(request, self.name)
        tp = run_tp(request, l)
        details: dict[str, Any] = dict(tp.details)
        assignment = request.db.work_table("tp_assignment")
        split: Split | None = None
        if not tp.residue_rows:
            assign(request, tp, assignment)  # its ids published by the pipeline
        else:
            # R's rows and their coordinates from the row map and the cells; the rows that stay are written
            # while Hilbert-l groups R's in a thread, then R's rows are inserted: grouped, or whole as R
            published = _Published(request, tp, assignment, self.publishes_ids)
            split = split_rows(
                request,
                l,
                first_gid=tp.residue_gid,
                residue=tp.residue,
                keep_whole_unless_fewer_stars=True,
                beside=published.beside,
                publish=published.publish if self.publishes_ids else None,
            )
            if split.rows != tp.residue_rows:  # the split inserted every row of R: the assignment's rest
                raise InternalError(f"Hilbert split {split.rows} of the residue's {tp.residue_rows} rows")
            details.update(
                residue_split=split.table is not None,
                residue_groups=split.groups if split.table is not None else 1,
                residue_stars_whole=split.stars_whole,
                residue_stars_split=split.stars,
                hilbert_max_l_from_group=split.max_l_from,
                hilbert_leftover_rows=split.leftovers,
            )
        details["algorithm_seconds"] = round(time.perf_counter() - t0, 4)
        groups = int(details["qi_groups_published"]) + int(details.get("residue_groups", 0))
        # a QI-group's rows share their QI values: only the residue's groups may star a QI
        stars = write_group_stars(request, split)
        return Partitioning(
            assignment=assignment,
            recoding="suppress",
            details=details,
            groups=groups,
            group_stars=stars,
            ids_published=split is not None and self.publishes_ids,
        )
