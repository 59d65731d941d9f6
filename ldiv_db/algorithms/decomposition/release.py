"""Decomposition+ releases (SPEC §4.1–4.5): what one release of a stream publishes, built before anything is
written, and its three tables as a :class:`~ldiv_db.algorithms.base.Release` that the one release pipeline
(:mod:`ldiv_db.pipeline.publish`) writes, reconciles, verifies and records.

A release named OUT is three tables: ``OUT_qid`` (QIs and kept columns unchanged, plus ``group_id``),
``OUT_sa`` (``group_id`` and one VARCHAR column per SA: every group's multiset of each SA after noise, each
column sorted inside its group, no cross-SA alignment) and ``OUT_marginals`` (the true SA rows of the
published rows, sorted, no group id). The release is a *stream*: ``ldiv anonymize --algorithm decomposition``
publishes release 1, ``ldiv release append`` the next ones. Every release is cumulative (all rows published so
far); a published row never changes group and a published group's SA values are only ever copied forward (or
grown by a starved row, never re-noised).

Noise rows: noise replaces a surplus copy inside a group, so a group's SA-table has exactly as many rows as
its QID-table. Nothing in the published tables says which values are noise (that would undo it); the noise is
counted in ``ldiv.release`` (details ``noise``) and logged privately in ``ldiv.noise``.

Before anything is written (:func:`build_release`): the batch's row keys (:mod:`.keys`), every new or grown
group l_i-diverse per SA, and (continuous release) the inference-channel check against every earlier release
of the stream. In the pipeline's ONE transaction (:class:`StreamRelease`): the three tables, the kept-back
rows (private table ``ldiv."retained:OUT"`` with their starvation penalty), the stream row map and row keys;
the reconciliation (rows published + kept back = rows received, the three tables' row counts, group sizes, the
marginals' SA counts against the source rows, the SA-table's against the marginals corrected by the noise log,
the noise count, one stored key per received row); the verification of (l_1..l_k)-diversity on the WRITTEN
SA-table (the shared ``ldiv check`` evaluator, whose group statistics sql/decomposition/diverse.sql reads for
the stream's figures); ``ldiv.release_row`` and the noise log. The source tables are only read."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.catalog import Table, table_at
from ...core.inputs import Inputs, check_nulls
from ...errors import BadInput, PrivacyViolation
from ...privacy import Distinct
from ...sqlgen.render import Ident, TableRef, render
from ...util.lazy import library
from ...util.progress import Progress
from ...verify.check import evaluate
from ...verify.verdicts import GROUPS, PartitionModel, entry, record, verdict_of
from ..base import Header, Reconciled, Release, StreamState, StreamUpdate, Verdict, retained_ref
from . import frames, keys
from .checks import channel_check, check_new_groups
from .coding import Coder, distances_or_nan, hierarchy_distances
from .config import STREAM_NULL, Place, StreamConfig, outputs
from .forming import form_groups
from .frames import Built, Previous
from .noise import Links, Noise, NoisySA, add_noise

if TYPE_CHECKING:
    import pandas as pd

    from ...db import Database
else:
    pd = library("pandas")


# ---------------------------------------------------------------------------- one release: the frames
def _build(
    db: Database,
    config: StreamConfig,
    pool: TableRef,
    release: int,
    hierarchy_source: str,
    previous_sa: TableRef | None,
    previous_marginals: TableRef | None,
    seed: int,
) -> Built:
    """Fetch the pool (in the order of the seeded key of its row keys, ``seed``), form the groups, add the
    noise: the frames the writer inserts."""
    frame, coders = _pool_rows(db, config, pool, seed)
    arrived = frame["arrived"].to_numpy(dtype=np.int64)
    starvation = release - arrived
    prev = frames.previous(db, config, coders, previous_sa, previous_marginals)  # earlier releases' groups

    bucket = coders[0].codes
    t0 = time.perf_counter()
    # the published groups are not passed: none receives a row, and their value sets (a bitset of every value
    # per group) cost groups × values / 64 words, quadratic in the stream where both grow with the rows
    forming = form_groups(
        bucket,
        [c.codes for c in coders[1:]],
        [c.size for c in coders[1:]],
        config.ls[0],
        starvation=starvation,
        threshold=config.threshold,
    )
    t_form = time.perf_counter() - t0
    new = forming.new_groups
    local = forming.gid  # 0..new-1 new groups, new+k published group k, -1 kept back
    base = int(prev.gids.max()) if len(prev.gids) else 0
    gid = np.where(local < 0, -1, np.where(local < new, base + 1 + local, 0))
    into_old = local >= new
    if into_old.any():
        gid[into_old] = prev.gids[local[into_old] - new]

    in_new = (local >= 0) & (local < new)
    t0 = time.perf_counter()
    noise = _noise(db, config, coders, gid, np.where(in_new, gid, -1), prev, hierarchy_source)
    t_noise = time.perf_counter() - t0
    grown = np.unique(gid[into_old])
    sa_table = frames.sa_rows(coders, gid, np.nonzero(in_new)[0], into_old, grown, prev, noise)
    placed = gid >= 0
    rks = frame["rk"].to_numpy(dtype=np.int64)
    # the new groups' published ids, given once their noise is made in the order of the algorithm's ids
    publish = frames.Publish(base, new, seed)
    assignment = pd.DataFrame({"rk": rks[placed], "gid": publish(gid[placed])})
    noise_table = frames.noise_frame(config, coders, noise)
    for table in (sa_table, noise_table):
        if len(table):
            table["gid"] = publish(table["gid"].to_numpy(dtype=np.int64))
    details = {
        "release": release,
        "primary": config.sa[0],
        "l": list(config.ls),
        "noise_mode": config.noise,
        "starvation_threshold": config.threshold,
        "rows_pool": len(frame),
        "rows_arriving": int(np.count_nonzero(arrived == release)),
        **frames.placement(coders[0], forming, starvation, placed),
        "new_groups": new,
        "grown_groups": len(grown),
        **frames.noise_details(config, noise),
        "seconds_forming": round(t_form, 4),
        "seconds_noise": round(t_noise, 4),
    }
    return Built(assignment, sa_table, noise_table, new, len(prev.gids) + new, details, base)


def _pool_rows(
    db: Database, config: StreamConfig, pool: TableRef, seed: int
) -> tuple[pd.DataFrame, list[Coder]]:
    """The pool's rows in the seeded key's order and a coder per SA. Where the engine compares text by its
    bytes (:attr:`Database.byte_collation`), the rows come with integer codes of their exact spellings and
    the spellings once (a million rows' text costs the fetch most of its time); elsewhere as text."""
    slots = config.slots(config.sa)
    if not db.byte_collation:
        query = render("decomposition/pool_rows.sql", {"seed": seed}, pool=pool, slots=slots, codes=None)
        frame = db.df(query, bulk=True)
        return frame, [Coder(frame[f"s{i + 1}"]) for i in range(len(slots))]
    values = db.work_table("dec_pool_values")
    db.run(render("decomposition/pool_values.sql", target=values, pool=pool, slots=slots))
    spellings: list[dict[int, str | None]] = [{} for _ in slots]
    for s, v, code in db.rows(render("catalog/all_rows.sql", source=values)):
        spellings[int(s) - 1][int(code)] = v
    frame = db.df(
        render("decomposition/pool_rows.sql", {"seed": seed}, pool=pool, slots=slots, codes=values), bulk=True
    )
    coders = [
        Coder.of_codes(frame[f"s{i + 1}"].to_numpy(), [found[c] for c in range(len(found))])
        for i, found in enumerate(spellings)
    ]
    return frame, coders


def _noise(
    db: Database,
    config: StreamConfig,
    coders: Sequence[Coder],
    gid: np.ndarray,
    noise_gid: np.ndarray,
    prev: Previous,
    hierarchy_source: str,
) -> Noise:
    """Noise for the new groups (``noise_gid`` >= 0), from the values linkable to each primary value in
    the marginals (earlier ones + this release's rows); a group that stays short is refused."""
    k = len(config.sa)
    bucket = coders[0].codes
    placed = gid >= 0
    links, distances, orders = [], [], []
    for i in range(1, k):
        prims = np.concatenate([bucket[placed], prev.marginals[0]])
        links.append(
            Links.of(prims, np.concatenate([coders[i].codes[placed], prev.marginals[i]]), coders[0].size)
        )
        orders.append(coders[i].order())
        measure = hierarchy_distances if config.noise == "distance" else distances_or_nan
        distances.append(measure(db, hierarchy_source, config.sa[i], coders[i]))
    sas = [
        NoisySA(c.codes, int(l), m, d, o, i)
        for i, (c, l, m, d, o) in enumerate(
            zip(coders[1:], config.ls[1:], links, distances, orders, strict=True), 1
        )
    ]
    noise = add_noise(noise_gid, bucket, sas, mode=config.noise, seed=config.seed)
    if noise.unresolved:
        bad_group, bad_sa = noise.unresolved[0]
        raise PrivacyViolation(
            f"group {bad_group} cannot be made {config.ls[bad_sa]}-diverse on {config.sa[bad_sa]!r}: too few "
            f"values of it are published ({len(noise.unresolved)} group/SA pair(s)); nothing was written",
            f"lower l for {config.sa[bad_sa]} (at most the number of its distinct values in the published rows)",
        )
    return noise


# ---------------------------------------------------------------------------- before anything is written
def build_release(
    db: Database,
    *,
    out: TableRef,
    new_rows: Table,
    config: StreamConfig,
    stream: StreamState | None,
    hierarchy_source: str,
    progress: Progress,
    seed: int,
) -> StreamRelease:
    """The first release (``stream`` None) or the next release of a stream from ``new_rows``: form the
    groups and add the noise, and check them, before anything is written. ``seed``: the run's, whose key
    breaks the ties among rows (:mod:`ldiv_db.pipeline.opaque`)."""
    incoming = int(db.scalar(render("catalog/row_count.sql", source=new_rows.ref)))
    if not config.null_as_value:
        check_nulls(db, new_rows, new_rows.columns_of([*config.qi, *config.sa]), incoming, STREAM_NULL)
    # the stream's one row-key rule, before anything is written: no row twice, no NULL key
    keys.check_batch(db, out.display(), config, new_rows, stored=stream is not None)
    place = _place(db, out, new_rows, config, stream, hierarchy_source)
    progress.update(1, 6, "forming groups")
    prev_sa, prev_marg = place.previous[1:] if place.previous else (None, None)
    built = _build(db, config, place.pool, place.release, hierarchy_source, prev_sa, prev_marg, seed)
    progress.update(2, 6, "groups formed; checking")
    check_new_groups(built.sa_rows, config.ls)
    work = _work_tables(db, config, built)
    channel, previous_id = channel_check(db, place, config, work)
    progress.update(3, 6, "writing")
    return StreamRelease(place, new_rows, config, built, work, incoming, channel, previous_id, progress)


def _place(
    db: Database,
    out: TableRef,
    new_rows: Table,
    config: StreamConfig,
    stream: StreamState | None,
    hierarchy_source: str,
) -> Place:
    """The pool (the new rows and the rows kept back so far) and copies of the previous release."""
    pool = db.work_table("dec_pool")
    release = 1 if stream is None else stream.releases + 1
    db.run(
        render(
            "decomposition/pool.sql",
            {"offset": 0 if stream is None else stream.next_key, "release": release},
            target=pool,
            source=new_rows.ref,
            columns=[new_rows.column(c).ident for c in config.columns],
            retained=stream.retained if stream is not None else None,
        )
    )
    private = (retained_ref(db, out.display()), keys.keys_ref(db, out.display()))
    if stream is None:
        return Place(out, None, hierarchy_source, pool, None, *private)
    tables = outputs(out)
    for ref in tables:
        if not db.exists(ref):
            raise BadInput(
                f"the release table {ref.display()} of stream {out.display()} is missing",
                "a stream's three tables must stay in place between releases",
            )
    prev_qid, prev_sa, prev_marg = (db.work_table(f"dec_prev_{x}") for x in ("qid", "sa", "marginals"))
    for target, source in zip((prev_qid, prev_sa, prev_marg), tables, strict=True):
        db.run(render("decomposition/copy.sql", target=target, source=source))
    return Place(out, stream, hierarchy_source, pool, (prev_qid, prev_sa, prev_marg), *private)


def _work_tables(db: Database, config: StreamConfig, built: Built) -> tuple[TableRef, TableRef, TableRef]:
    """The assignment, the SA rows of new and grown groups, and the noise, as work tables."""
    slots_sa = [Ident(f"s{i + 1}") for i in range(len(config.sa))]
    assignment = db.work_table("dec_assignment")
    sa_rows = db.work_table("dec_sa_rows")
    noise = db.work_table("dec_noise")
    db.run(render("decomposition/assignment.sql", target=assignment))
    db.run(render("decomposition/sa_rows.sql", target=sa_rows, slots=slots_sa))
    db.run(render("decomposition/noise_rows.sql", target=noise))
    db.insert_frame(assignment, built.assignment)
    if len(built.sa_rows):
        db.insert_frame(sa_rows, built.sa_rows)
    if len(built.noise):
        db.insert_frame(noise, built.noise)
    return assignment, sa_rows, noise


# ---------------------------------------------------------------------------- in the release transaction
class StreamRelease(Release):
    """The three tables of one release of a stream, published by the one release pipeline."""

    def __init__(
        self,
        place: Place,
        new_rows: Table,
        config: StreamConfig,
        built: Built,
        work: tuple[TableRef, TableRef, TableRef],
        incoming: int,
        channel: dict[str, int],
        previous_id: int | None,
        progress: Progress,
    ) -> None:
        self.place, self.new_rows, self.config, self.built = place, new_rows, config, built
        self.assignment, self.sa_rows, self.noise = work
        self.incoming, self.channel, self.previous_id, self.progress = (
            incoming,
            channel,
            previous_id,
            progress,
        )
        name, stream = place.name, place.stream
        self.out = place.out
        self.tables = outputs(place.out)
        self.retained, self.keys = place.retained, place.keys
        self.private = (self.retained,) if stream is not None else (self.retained, self.keys)
        self._stages: dict[TableRef, TableRef] = {}
        self._pending: TableRef | None = None  # staged: the new stream rows, entered when recorded
        self.empty = (len(built.assignment), incoming) if stream is None else None
        self.published_groups = built.published_groups
        self.ids_published = True  # _build gave the new groups their published ids
        self.stream = StreamUpdate(
            source=place.hierarchy_source,
            config=config.to_json(),
            releases=place.release,
            first_release=None if stream is None else stream.first_release,
            next_key=place.offset + incoming,
            retained=self.retained,
        )
        ls = list(config.ls)
        self.header = Header(
            name=name,
            source=new_rows.name,
            algorithm="decomposition",
            model="distinct",
            model_params={"l": ls},
            l=ls,
            qi=list(config.qi),
            sa=list(config.sa),
            output=", ".join(t.display() for t in self.tables),
            shown_l=ls,
        )

    def group_tables(self) -> list[tuple[TableRef, Sequence[str]]]:
        sa = [f"s{i + 1}" for i in range(len(self.config.sa))]
        return [
            (self.assignment, ("rk", "gid")),
            (self.sa_rows, ("gid", *sa)),
            (self.noise, ("gid", "sa", "replaced", "noise", "distance")),
        ]

    def regrouped(self, tables: Mapping[TableRef, TableRef]) -> None:
        self.assignment, self.sa_rows, self.noise = (
            tables[t] for t in (self.assignment, self.sa_rows, self.noise)
        )

    def write(self, db: Database) -> None:
        """The QID-, SA- and marginals tables, the kept-back rows, the stream row map and row keys."""
        qid_t, sa_t, marg_t = (self._at(t) for t in self.tables)
        prev_qid, prev_sa, prev_marg = self.place.previous or (None, None, None)
        config, pool, group = self.config, self.place.pool, Ident(self.config.group_column)
        sa = [Ident(s) for s in config.sa]
        db.run(
            render(
                "decomposition/write_qid.sql",
                output=qid_t,
                previous=prev_qid,
                pool=pool,
                assignment=self.assignment,
                columns=[Ident(c) for c in config.published],
                slots=config.slots(config.published),
                group_column=group,
            )
        )
        db.run(
            render(
                "decomposition/write_sa.sql",
                output=sa_t,
                previous=prev_sa,
                sa_rows=self.sa_rows,
                sa=sa,
                group_column=group,
            )
        )
        db.run(
            render(
                "decomposition/write_marginals.sql",
                output=marg_t,
                previous=prev_marg,
                pool=pool,
                assignment=self.assignment,
                sa=sa,
                slots=config.slots(config.sa),
                all_placed=self._all_placed(),
            )
        )
        self._write_stream_rows(db)

    def _all_placed(self) -> bool:
        """Every pool row is published by this release (none kept back): the marginals and the kept-back
        rows need no join to the assignment (the reconciliation checks both against it)."""
        return len(self.built.assignment) == int(self.built.details["rows_pool"])

    def _write_stream_rows(self, db: Database) -> None:
        place, config = self.place, self.config
        db.run(
            render(
                "decomposition/write_retained.sql",
                {"release": place.release},
                target=self._at(self.retained),
                pool=place.pool,
                assignment=self.assignment,
                slots=[Ident(f"c{i + 1}") for i in range(len(config.columns))],
                all_placed=self._all_placed(),
            )
        )
        params = {"name": place.name, "offset": place.offset, "source_name": self.new_rows.name}
        if self._stages:  # staged: the stream rows wait in a work table until the release is recorded
            self._pending = db.work_table("dec_stream_rows")
            db.run(render("decomposition/stream_rows_table.sql", target=self._pending))
        db.run(
            render(
                "decomposition/stream_rows.sql",
                {**params, "release": place.release},
                source=self.new_rows.ref,
                target=self._pending,
            )
        )
        first, key_table = place.stream is None, self._at(self.keys)
        if key_table != self.keys and not first:  # a staged key table starts as the stream's keys
            db.run(render("decomposition/copy.sql", target=key_table, source=self.keys))
        keys.write_keys(db, key_table, place.name, config, self.new_rows, place.offset, first=first)

    def reconcile(self, db: Database) -> Reconciled:
        place, config = self.place, self.config
        qid_t, sa_t, marg_t = (self._at(t) for t in self.tables)
        found = db.records(
            render(
                "decomposition/reconcile.sql",
                {
                    "name": place.name,
                    "release": place.release,
                    "first_release": place.stream.first_release if place.stream else None,
                    "sa_names": list(config.sa),
                },
                pool=place.pool,
                assignment=self.assignment,
                retained=self._at(self.retained),
                pending=self._pending,
                qid=qid_t,
                sa_table=sa_t,
                marginals=marg_t,
                previous_qid=place.previous[0] if place.previous else None,
                previous_marginals=place.previous[2] if place.previous else None,
                noise=self.noise,
                group_column=Ident(config.group_column),
                sa=[Ident(s) for s in config.sa],
                slots=config.slots(config.sa),
            )
        )[0]
        rec = {key: int(v) for key, v in found.items()}
        problems = _reconcile_problems(rec, self.incoming, len(self.built.noise))
        problems += keys.reconcile_keys(db, self._at(self.keys), config, rec["stream_rows"])
        return Reconciled(rec["stream_rows"], rec["qid_rows"], rec["retained"], rec, problems)

    def verify(self, db: Database, rec: Reconciled) -> Verdict:
        """(l_1..l_k)-diversity on the written SA-table, by the shared ``ldiv check`` evaluator; the
        stream's own figures (groups, smallest group, groups below l_i per SA) are read from the group
        statistics that evaluator computed on the written table (an empty SA-table: from the table)."""

        self.progress.update(4, 6, "written and reconciled; verifying")
        config, ls, counts = self.config, list(self.config.ls), rec.counts
        sa_t = self._at(self.tables[1])
        group, sa = Ident(config.group_column), [Ident(s) for s in config.sa]
        diverse: dict[str, Any] = {"target": sa_t, "group_column": group, "sa": sa}
        found: list[dict[str, Any]] = []

        def figures(stats: TableRef) -> None:  # the evaluator's statistics of the written SA-table
            found.extend(db.records(render("decomposition/diverse.sql", {"ls": ls}, stats=stats, **diverse)))

        by_group = None
        if counts["sa_rows"]:
            written = table_at(db, sa_t)
            inputs = Inputs(
                written,
                (),
                tuple(written.column(s) for s in config.sa),
                written.column(config.group_column),
                counts["sa_rows"],
            )
            # the verdict and the group count are what the verification records: no recursive profile
            by_group = evaluate(
                db,
                inputs,
                Distinct(tuple(ls)),
                null_as_value=True,
                prefix="verify_dec",
                profile=False,
                on_stats=figures,
            )
        else:
            found.extend(db.records(render("decomposition/diverse.sql", {"ls": ls}, **diverse)))
        post = found[0]
        groups = int(post["groups"])
        details = dict(self.built.details)
        details.update(
            {
                "stream": self.place.name,
                "tables": [t.display() for t in self.tables],
                "rows_received_total": counts["stream_rows"],
                "rows_published_total": counts["qid_rows"],
                "rows_waiting": counts["retained"],
                "groups_total": groups,
                "min_group_size": None if post["min_group"] is None else int(post["min_group"]),
            }
        )
        # the SA-table publishes each group's SA values: its groups are the one partition it reveals
        part = PartitionModel(GROUPS, (config.group_column,), Distinct(tuple(ls)))
        verification = {
            **record([] if by_group is None else [entry(part, verdict_of(by_group))]),
            "violating_groups": int(post["violating"]),
            "violating_by_sa": {config.sa[i]: int(post[f"v{i + 1}"]) for i in range(len(config.sa))},
            "inference_channel": self.channel,
            "reconciliation": counts,
        }
        if by_group is None:
            verification.update(model=part.model.describe(), partition=GROUPS)
        metrics = {
            "groups": groups,
            "avg_group_size": counts["qid_rows"] / groups if groups else None,
            "noise": counts["noise"],
            "noise_by_sa": details["noise_by_sa"],
            "noise_mean_distance": details["noise_mean_distance"],
            "rows_waiting": counts["retained"],
        }
        verified = not post["violating"] and (by_group is None or bool(by_group.satisfied))
        violation = f"distinct l-diversity {ls} per SA ({post['violating']} group(s))"
        return Verdict(verified, verification, metrics, details, groups, violation=violation)

    def link(self, db: Database, release_id: int) -> None:
        """``ldiv.release_row``: every row published so far with its group; the private noise log."""
        params = {"release_id": release_id, "previous_id": self.previous_id}
        db.run(render("decomposition/release_rows.sql", params, assignment=self.assignment))
        db.run(render("decomposition/noise_log.sql", {"release_id": release_id}, noise=self.noise))
        self.progress.update(5, 6, "recorded")

    # ------------------------------------------------------------------ staged (no transactions)
    def staged_tables(self) -> tuple[TableRef, ...]:
        """The three tables and both private tables: a staged release replaces the key table too (as a
        copy with the batch's keys added), so a release that fails leaves the stream's keys as they were."""
        return (*self.tables, self.retained, self.keys)

    def stage(self, tables: Mapping[TableRef, TableRef]) -> None:
        self._stages = dict(tables)

    def _at(self, ref: TableRef) -> TableRef:
        """Where ``ref`` is written now: its staging table while staged, else itself."""
        return self._stages.get(ref, ref)

    def unlink(self, db: Database, release_id: int) -> None:
        """The private noise log :meth:`link` wrote under ``release_id`` (a staged release that failed)."""
        db.run(render("decomposition/noise_forget.sql", {"release_id": release_id}))

    def after_record(self, db: Database, replace: bool) -> None:
        """Staged, once the release is recorded: forget a replaced stream's row map, then enter the new
        stream rows (on DuckDB and PostgreSQL both happen inside the transaction)."""
        if self._pending is None:
            return
        if self.place.stream is None and replace:
            db.run(render("decomposition/stream_forget.sql", {"name": self.place.name}))
        db.run(render("decomposition/stream_rows_enter.sql", source=self._pending))


def _reconcile_problems(rec: dict[str, int], incoming: int, noise: int) -> list[str]:
    p = []
    if not rec["assigned"] == rec["distinct_assigned"] == rec["assigned_in_pool"]:
        p.append(
            f"{rec['assigned']} assignments for {rec['distinct_assigned']} rows ({rec['assigned_in_pool']} in the pool)"
        )
    if rec["assigned"] + rec["retained"] != rec["received"]:
        p.append(f"published {rec['assigned']} + kept back {rec['retained']} != received {rec['received']}")
    if rec["arriving"] != incoming:
        p.append(f"{rec['arriving']} arriving rows in the pool for {incoming} source rows")
    total = rec["previous_rows"] + rec["assigned"]
    if not rec["qid_rows"] == rec["sa_rows"] == rec["marginal_rows"] == total:
        p.append(
            f"QID-table {rec['qid_rows']}, SA-table {rec['sa_rows']}, marginals {rec['marginal_rows']} rows "
            f"for {total} published"
        )
    if rec["stream_rows"] != rec["qid_rows"] + rec["retained"]:
        p.append(
            f"stream received {rec['stream_rows']} != published {rec['qid_rows']} + kept back {rec['retained']}"
        )
    if rec["size_mismatches"]:
        p.append(f"{rec['size_mismatches']} groups of different size in the QID- and SA-table")
    if rec["marginal_mismatches"]:
        p.append(f"{rec['marginal_mismatches']} SA values whose marginal counts do not match the source rows")
    if rec["sa_mismatches"]:
        p.append(f"{rec['sa_mismatches']} SA values whose SA-table counts do not match marginals and noise")
    if rec["noise"] != noise:
        p.append(f"{rec['noise']} noise values logged, {noise} added")
    return p
