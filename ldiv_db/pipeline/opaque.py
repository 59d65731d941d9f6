"""What a release shows of its source's rows: nothing of their ids or their order (DESIGN §6). One
enforcement point per way they could leak, both keyed by the run's private seed (:func:`run_seed`):

* **ties** — :func:`seeded_inputs`: every one-table algorithm reads the source through a copy stored in
  the order of a seeded key (``sql/_macros/seeded_key.sql``), so every tie it breaks by row id or row
  order (an ``ORDER BY rid``, a ``min(rowid)``, a stable sort of arrays fetched in row order) is broken by
  the key; :func:`to_source` maps its assignment and row labels back to the source's row ids. A stream
  (Decomposition+) reads its rows itself and orders them by the same key (``decomposition/pool_rows.sql``).
  An algorithm that declares itself ``order_free`` (its result a function of the rows' values alone,
  held to it by tests/integration/test_order_free.py) has no tie to break and reads the source as it is.
* **group ids** — :func:`publish_ids`, run by the release pipeline (:func:`ldiv_db.pipeline.publish.publish`)
  before anything is written: every table of the release that carries group ids is renumbered by one
  seeded random permutation (a stream's groups published earlier keep their ids: a published row never
  changes group), so the published table, the private link ``ldiv.release_row``, the verification and
  the guarantees all see the same opaque ids.

The seed is ``--seed`` or one drawn per run; it is recorded in the private ``ldiv.run`` only, never in a
published table.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..algorithms.base import Partitioning
from ..core.catalog import Table
from ..core.run_flags import MAX_SEED
from ..sqlgen.render import Ident, TableRef, render

if TYPE_CHECKING:
    from ..algorithms.base import Release
    from ..core.inputs import Inputs
    from ..db import Database


def run_seed(seed: int | None) -> int:
    """The run's seed: the user's (``--seed``), else a fresh one."""
    return secrets.randbelow(MAX_SEED + 1) if seed is None else seed


def seeded_inputs(db: Database, inputs: Inputs, seed: int, also: Sequence[str] = ()) -> Inputs:
    """``inputs`` reading a copy of the source whose rows are stored (and numbered) in the seeded key's
    order: its QIs, SAs and the columns ``also`` names (kept columns, columns options name), no other;
    names and hierarchies stay the source's (:attr:`ldiv_db.core.catalog.Table.copy_of`)."""
    source = inputs.table
    wanted = {c.name for c in (*inputs.qi, *inputs.sa)} | {source.column(n).name for n in also}
    columns = tuple(c for c in source.columns if c.name in wanted)
    target = db.work_table("seeded_source")
    db.run(
        render(
            "order/seeded_source.sql",
            {"seed": seed},
            target=target,
            source=source.ref,
            columns=[c.ident for c in columns],
        )
    )
    return dataclasses.replace(inputs, table=Table(target, source.kind, columns, copy_of=source.ref))


def to_source(db: Database, part: Partitioning, inputs: Inputs) -> Partitioning:
    """``part`` (computed on :func:`seeded_inputs`' copy) with the source's row ids: its assignment, and its
    row labels (recoding 'labels')."""
    seeded = inputs.table.ref
    qi = [f"q{i}" for i in range(1, len(inputs.qi) + 1)]
    assignment = _source_rids(db, part.assignment, seeded, ["gid", "deleted", "sa_suppressed"])
    labels = None if part.labels is None else _source_rids(db, part.labels, seeded, qi)
    return dataclasses.replace(part, assignment=assignment, labels=labels)


def _source_rids(db: Database, rows: TableRef, seeded: TableRef, columns: Sequence[str]) -> TableRef:
    target = db.work_table(f"{rows.name}_by_source")
    db.run(
        render(
            "order/source_rids.sql",
            target=target,
            rows=rows,
            seeded=seeded,
            columns=[Ident(c) for c in columns],
        )
    )
    return target


def publish_ids(db: Database, release: Release, seed: int) -> None:
    """THE group-id rule: the release's group ids above :attr:`Release.published_groups` become a seeded
    random permutation of the ids after it, in every table :meth:`Release.group_tables` names (the first
    one holds every group); the release then reads the renumbered tables (:meth:`Release.regrouped`). An
    algorithm that numbered its groups by this rule itself (:attr:`Release.ids_published`) is left as it is."""
    tables = release.group_tables()
    if not tables or release.ids_published:
        return
    (assignment, first_columns), base = tables[0], release.published_groups
    ids = db.work_table("published_ids")
    db.run(
        render(
            "order/group_ids.sql",
            {"seed": seed, "base": base},
            target=ids,
            assignment=assignment,
            deleted="deleted" in first_columns,
        )
    )
    renamed: dict[TableRef, TableRef] = {}
    for rows, columns in tables:
        target = db.work_table(f"{rows.name}_published")
        db.run(
            render(
                "order/renumber.sql",
                target=target,
                rows=rows,
                ids=ids,
                columns=[Ident(c) for c in columns],
                is_gid=[c == "gid" for c in columns],
            )
        )
        renamed[rows] = target
    release.regrouped(renamed)
