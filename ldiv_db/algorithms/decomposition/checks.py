"""Decomposition+'s checks before anything is written (SPEC §4.3-4.4): every new or grown group is
(l_1..l_k)-diverse, and a continuous release opens no inference channel with the stream's earlier
releases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...core.catalog import Table, output_ref, resolve_table, table_at
from ...errors import BadInput, PrivacyViolation
from ...sqlgen.render import Ident, TableRef, render
from ...util.lazy import library
from .config import Place, StreamConfig, outputs

if TYPE_CHECKING:
    import pandas as pd

    from ...db import Database
    from ..base import StreamState
else:
    pd = library("pandas")


def check_batch_types(db: Database, stream: StreamState, config: StreamConfig, batch: Table) -> None:
    """Before anything is written: the batch's stream columns (QIs, kept columns, SAs) have the stream's
    types (its first table's; the published QID-table's where that table is gone), so no published
    column changes type and no SA value is spelled two ways (62 and '62')."""
    try:
        first: Table | None = resolve_table(db, stream.source)
    except BadInput:
        first = None
    names = config.columns if first is not None else config.published
    ref = first if first is not None else table_at(db, outputs(output_ref(stream.name))[0])
    differ = []
    for name in names:
        want, have = ref.column(name).data_type, batch.column(name).data_type
        if want.upper() != have.upper():
            differ.append(f"{name} is {have} (the stream's is {want})")
    if differ:
        raise BadInput(
            f"{batch.name} cannot join the stream {stream.name}: its column types differ from the stream's: "
            + "; ".join(differ)
            + "; nothing was written",
            "give the batch the stream's column types (e.g. CREATE TABLE b2 AS SELECT CAST(col AS TYPE) ... "
            "after cleaning the values)",
        )


def check_new_groups(sa_rows: pd.DataFrame, ls: Sequence[int]) -> None:
    """Before anything is written: every new or grown group of the SA-table rows (``gid``, ``s1``..``sk``,
    the frame the work table receives) is (l_1..l_k)-diverse, NULL counting as a value. Counted on the
    frame, not on its work table: the written SA-table holds these rows and is verified again after the
    write (:meth:`StreamRelease.verify`), so one statement over the rows is enough."""
    if not len(sa_rows):
        return
    group, groups = pd.factorize(sa_rows["gid"], sort=False)
    below = np.zeros(len(groups), dtype=bool)
    for i, l_i in enumerate(ls):
        codes, values = pd.factorize(sa_rows[f"s{i + 1}"], sort=False, use_na_sentinel=False)
        pairs = pd.unique(group.astype(np.int64) * max(len(values), 1) + codes)
        distinct = np.bincount(pairs // max(len(values), 1), minlength=len(groups))
        below |= distinct < l_i
    if below.any():
        raise PrivacyViolation(
            f"{int(below.sum())} new group(s) are not (l_1..l_k)-diverse ({list(ls)}); nothing was written",
            "this is a bug in the algorithm; please report it with the run id",
        )


def channel_check(
    db: Database, place: Place, config: StreamConfig, work: tuple[TableRef, TableRef, TableRef]
) -> tuple[dict[str, int], int | None]:
    """Continuous release: no row changes group or is published twice, no published group's SA values
    change or grow (the difference of two releases would show them). Returns the counts and the
    previous release's id."""
    channel = {"moved": 0, "republished": 0, "sa_changed": 0, "grown": 0}
    if place.stream is None or place.previous is None:
        return channel, None
    name, first = place.name, place.stream.first_release
    previous_id = latest_release(db, name, first)
    found = db.records(
        render(
            "decomposition/channel.sql",
            {"name": name, "first_release": first, "previous_id": previous_id},
            assignment=work[0],
            previous_sa=place.previous[1],
            sa_rows=work[1],
            group_column=Ident(config.group_column),
            sa=[Ident(s) for s in config.sa],
        )
    )[0]
    channel = {key: int(v) for key, v in found.items()}
    if any(channel.values()):
        raise PrivacyViolation(
            f"the release would open an inference channel with earlier releases of {name}: "
            f"{channel['moved']} row(s) would change group, {channel['republished']} published twice, "
            f"{channel['sa_changed']} SA value(s) of published groups would change, {channel['grown']} "
            "published group(s) would gain rows (the difference of two releases shows them); nothing was written",
            "this is a bug in the algorithm; please report it with the run id",
        )
    return channel, previous_id


def latest_release(db: Database, name: str, first_release: int) -> int | None:
    rows = db.records(render("decomposition/history.sql", {"name": name, "first_release": first_release}))
    return int(rows[-1]["release_id"]) if rows else None
