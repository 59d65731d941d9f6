"""Decomposition+ releases: the three-table writer and the continuous release stream (SPEC §4.1–4.5).

A release named OUT is three tables: ``OUT_qid`` (QIs and kept columns unchanged, plus ``group_id``),
``OUT_sa`` (``group_id`` and one VARCHAR column per SA: every group's multiset of each SA after noise,
each column sorted inside its group, no cross-SA alignment) and ``OUT_marginals`` (the true SA rows of
the published rows, sorted, no group id). The release is a *stream*: ``ldiv anonymize --algorithm
decomposition`` publishes release 1, ``ldiv release append`` the next ones. Every release is cumulative
(all rows published so far); a published row never changes group and a published group's SA values are
only ever copied forward (or grown by a starved row, never re-noised).

Noise rows: noise replaces a surplus copy inside a group, so a group's SA-table has exactly as many rows
as its QID-table. Nothing in the published tables says which values are noise (that would undo it); the
noise is counted in ``ldiv.release`` (details ``noise``) and logged privately in ``ldiv.noise``.

The writer gives the pipeline's guarantees (ldiv_db/anonymize.py) for this shape:

- checks before anything is written: every new or grown group l_i-diverse per SA, and (continuous
  release) the inference-channel check against every earlier release of the stream;
- ONE transaction writes the three tables, the kept-back rows (private table ``ldiv."retained:OUT"``
  with their starvation penalty), the stream row map, ``ldiv.release``, ``ldiv.release_row`` and the
  noise log; reconciles exactly (rows published + kept back = rows received, the three tables' row
  counts, group sizes, the marginals' SA counts against the source rows, the SA-table's against the
  marginals corrected by the noise log, the noise count); re-verifies (l_1..l_k)-diversity on the
  WRITTEN SA-table (sql/decomposition/diverse.sql and the shared ``ldiv check`` evaluator); and rolls
  everything back on any failure. The source tables are only read.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ... import ownership
from ...catalog import Table, resolve_table, table_at
from ...errors import BadInput, InternalError, PrivacyViolation
from ...inputs import Inputs, check_nulls
from ...privacy import Distinct
from ...progress import Progress
from ...render import Ident, TableRef, render
from . import keys
from .forming import Published, ValueSets, form_groups
from .noise import add_noise

if TYPE_CHECKING:
    from ...anonymize import AnonymizeResult
    from ...db import Database

NOISE_MODES = ("distance", "random")
DEFAULT_THRESHOLD = 2


@dataclass(frozen=True)
class StreamConfig:
    """What every release of a stream shares (stored as JSON in ``ldiv.stream``)."""

    qi: tuple[str, ...]
    sa: tuple[str, ...]  # sa[0] is the primary SA
    keep: tuple[str, ...]
    ls: tuple[int, ...]
    noise: str
    seed: int | None
    threshold: int
    null_as_value: bool
    group_column: str
    key: tuple[str, ...] = ()  # the --key columns; empty: a content fingerprint (decomposition_keys)
    fingerprint: tuple[str, ...] = ()  # without --key: the columns of the first table, hashed
    keyed: bool = True  # False for a stream published before streams keyed their rows

    @property
    def columns(self) -> tuple[str, ...]:
        """The stream's columns in slot order c1..cn: QIs, kept columns, SAs."""
        return (*self.qi, *self.keep, *self.sa)

    @property
    def published(self) -> tuple[str, ...]:
        return (*self.qi, *self.keep)

    def slots(self, names: Sequence[str]) -> list[Ident]:
        cols = self.columns
        return [Ident(f"c{cols.index(n) + 1}") for n in names]

    def to_json(self) -> str:
        return json.dumps(
            {
                "qi": self.qi,
                "sa": self.sa,
                "keep": self.keep,
                "l": self.ls,
                "noise": self.noise,
                "seed": self.seed,
                "starvation_threshold": self.threshold,
                "null_as_value": self.null_as_value,
                "group_column": self.group_column,
                "key": list(self.key),
                "fingerprint": list(self.fingerprint),
            }
        )

    @classmethod
    def from_json(cls, text: str) -> StreamConfig:
        d = json.loads(text)
        return cls(
            tuple(d["qi"]),
            tuple(d["sa"]),
            tuple(d["keep"]),
            tuple(int(x) for x in d["l"]),
            d["noise"],
            d["seed"],
            int(d["starvation_threshold"]),
            bool(d["null_as_value"]),
            d["group_column"],
            tuple(d.get("key") or ()),
            tuple(d.get("fingerprint") or ()),
            "key" in d,
        )


@dataclass(frozen=True)
class Stream:
    name: str
    source: str
    config: StreamConfig
    releases: int
    first_release: int
    next_key: int
    retained: TableRef


def outputs(out: TableRef) -> tuple[TableRef, TableRef, TableRef]:
    """OUT_qid, OUT_sa, OUT_marginals next to OUT."""
    return (
        TableRef(f"{out.name}_qid", out.schema),
        TableRef(f"{out.name}_sa", out.schema),
        TableRef(f"{out.name}_marginals", out.schema),
    )


def retained_ref(name: str) -> TableRef:
    return TableRef(f"retained:{name}", "ldiv")


def load_stream(db: Database, name: str) -> Stream | None:
    rows = db.records(render("decomposition/stream_get.sql", {"name": name}))
    if not rows:
        return None
    r = rows[0]
    return Stream(
        r["name"],
        r["source"],
        StreamConfig.from_json(r["config"]),
        int(r["releases"]),
        int(r["first_release"]),
        int(r["next_key"]),
        retained_ref(r["name"]),
    )


# ---------------------------------------------------------------------------- value coding
class Coder:
    """Integer codes of one SA's values (as text; None = NULL): pool values in first-appearance order
    (row-key order), then values only earlier releases hold."""

    def __init__(self, values: pd.Series) -> None:
        codes, uniques = pd.factorize(values, sort=False, use_na_sentinel=False)
        self.codes = np.asarray(codes, dtype=np.int64)
        self.values: list[str | None] = [None if _isna(u) else str(u) for u in uniques]
        self.index: dict[str | None, int] = {v: i for i, v in enumerate(self.values)}

    def encode(self, values: Sequence[Any]) -> np.ndarray:
        out = np.empty(len(values), dtype=np.int64)
        for i, v in enumerate(values):
            key = None if _isna(v) else str(v)
            code = self.index.get(key)
            if code is None:
                code = len(self.values)
                self.values.append(key)
                self.index[key] = code
            out[i] = code
        return out

    @property
    def size(self) -> int:
        return len(self.values)

    def order(self) -> np.ndarray:
        """Rank of every code in value order (NULL first, numbers numerically, then text)."""
        keys = sorted(range(self.size), key=lambda c: _value_key(self.values[c]))
        rank = np.empty(self.size, dtype=np.int64)
        rank[keys] = np.arange(self.size)
        return rank

    def decode(self, codes: np.ndarray) -> np.ndarray:
        table = np.array(self.values, dtype=object)
        return table[codes] if len(codes) else np.array([], dtype=object)


def _isna(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def _value_key(v: str | None) -> tuple[int, float, str]:
    if v is None:
        return (0, 0.0, "")
    try:
        return (1, float(v), v)
    except ValueError:
        return (2, 0.0, v)


def distance_matrix(db: Database, source: str, column: str, coder: Coder) -> np.ndarray:
    """d(v1, v2) = height(LCA) / H over the SA's hierarchy (SPEC §4.4)."""
    from ...taxonomy import load

    tree = load(db, source, column)
    if tree is None:
        raise BadInput(
            f"--noise distance needs a hierarchy for the sensitive attribute {column!r}",
            f"import one: ldiv hierarchy import DB --table {source} --column {column} FILE.csv, "
            "or pass --noise random",
        )
    missing = [v for v in coder.values if v is None or v not in tree]
    if missing:
        raise BadInput(
            f"the hierarchy of {column!r} has no leaf {missing[0]!r} ({len(missing)} value(s) missing)",
            "add the value to the hierarchy file and import it again",
        )
    height = tree.height(tree.root) or 1
    n = coder.size
    out = np.zeros((n, n), dtype=np.float64)
    values = [str(v) for v in coder.values]
    for a in range(n):
        for b in range(a + 1, n):
            d = tree.height(tree.lca(values[a], values[b])) / height
            out[a, b] = out[b, a] = d
    return out


# ---------------------------------------------------------------------------- one release
@dataclass
class Built:
    assignment: pd.DataFrame
    sa_rows: pd.DataFrame
    noise: pd.DataFrame
    new_groups: int
    groups_total: int
    details: dict[str, Any]


def _build(
    db: Database,
    config: StreamConfig,
    pool: TableRef,
    release: int,
    hierarchy_source: str,
    previous_sa: TableRef | None,
    previous_marginals: TableRef | None,
) -> Built:
    """Fetch the pool, form the groups, add the noise: the frames the writer inserts."""
    k = len(config.sa)
    sa_slots = config.slots(config.sa)
    frame = db.df(render("decomposition/pool_rows.sql", pool=pool, slots=sa_slots))
    coders = [Coder(frame[f"s{i + 1}"]) for i in range(k)]
    arrived = frame["arrived"].to_numpy(dtype=np.int64)
    rks = frame["rk"].to_numpy(dtype=np.int64)
    starvation = release - arrived

    # published groups of earlier releases (continuous release)
    old_gids = np.zeros(0, dtype=np.int64)
    old_codes: list[np.ndarray] = []
    prev_group = np.zeros(0, dtype=np.int64)
    marg_codes: list[np.ndarray] = [np.zeros(0, dtype=np.int64) for _ in range(k)]
    if previous_sa is not None and previous_marginals is not None:
        prev = db.df(
            render(
                "decomposition/previous_sa.sql",
                source=previous_sa,
                group_column=Ident(config.group_column),
                sa=[Ident(s) for s in config.sa],
            )
        )
        prev_group = prev["gid"].to_numpy(dtype=np.int64)
        old_codes = [coders[i].encode(prev[f"s{i + 1}"].tolist()) for i in range(k)]
        old_gids = np.unique(prev_group)
        marg = db.df(
            render(
                "decomposition/previous_marginals.sql",
                source=previous_marginals,
                sa=[Ident(s) for s in config.sa],
            )
        )
        marg_codes = [coders[i].encode(marg[f"s{i + 1}"].tolist()) for i in range(k)]

    bucket = coders[0].codes
    others = [c.codes for c in coders[1:]]
    n_values = [c.size for c in coders[1:]]
    published: Published | None = None
    if len(old_gids):
        idx = np.searchsorted(old_gids, prev_group)
        prim = ValueSets(len(old_gids), coders[0].size)
        prim.add(idx, old_codes[0])
        sets = []
        for i in range(1, k):
            s = ValueSets(len(old_gids), coders[i].size)
            s.add(idx, old_codes[i])
            sets.append(s)
        published = Published(prim, sets, np.bincount(idx, minlength=len(old_gids)).astype(np.int64))
    t0 = time.perf_counter()
    forming = form_groups(
        bucket,
        others,
        n_values,
        config.ls[0],
        starvation=starvation,
        threshold=config.threshold,
        published=published,
    )
    t_form = time.perf_counter() - t0
    new = forming.new_groups
    base = int(old_gids.max()) if len(old_gids) else 0
    local = forming.gid  # 0..new-1 new groups, new+k published group k, -1 kept back
    gid = np.where(local < 0, -1, np.where(local < new, base + 1 + local, 0))
    into_old = local >= new
    if into_old.any():
        gid[into_old] = old_gids[local[into_old] - new]

    # noise for the new groups, linkable values from the marginals (earlier ones + this release's rows)
    t0 = time.perf_counter()
    placed = gid >= 0
    cooccur = []
    distances = []
    orders = []
    for i in range(1, k):
        m = np.zeros((coders[0].size, coders[i].size), dtype=bool)
        m[bucket[placed], coders[i].codes[placed]] = True
        if len(marg_codes[0]):
            m[marg_codes[0], marg_codes[i]] = True
        cooccur.append(m)
        orders.append(coders[i].order())
        if config.noise == "distance":
            distances.append(distance_matrix(db, hierarchy_source, config.sa[i], coders[i]))
        else:
            distances.append(_distance_or_nan(db, hierarchy_source, config.sa[i], coders[i]))
    noise_gid = np.where((local >= 0) & (local < new), gid, -1)
    noise = add_noise(
        noise_gid,
        bucket,
        others,
        config.ls[1:],
        cooccur,
        distances,
        orders,
        mode=config.noise,
        seed=config.seed,
    )
    t_noise = time.perf_counter() - t0
    if noise.unresolved:
        bad_group, bad_sa = noise.unresolved[0]
        raise PrivacyViolation(
            f"group {bad_group} cannot be made {config.ls[bad_sa]}-diverse on {config.sa[bad_sa]!r}: too few "
            f"values of it are published ({len(noise.unresolved)} group/SA pair(s)); nothing was written",
            f"lower l for {config.sa[bad_sa]} (at most the number of its distinct values in the published rows)",
        )

    # the SA-table rows of new groups and of published groups that grew
    grown = np.unique(gid[into_old])
    sel = np.nonzero((local >= 0) & (local < new))[0]
    parts_gid = [gid[sel]]
    parts_codes = [[bucket[sel]] + [noise.codes[i - 1][sel] for i in range(1, k)]]
    if len(grown):
        keep_prev = np.isin(prev_group, grown)
        parts_gid.append(prev_group[keep_prev])
        parts_codes.append([old_codes[i][keep_prev] for i in range(k)])
        inc = np.nonzero(into_old)[0]
        parts_gid.append(gid[inc])
        parts_codes.append([coders[i].codes[inc] for i in range(k)])
    all_gid = np.concatenate(parts_gid)
    sa_cols: dict[str, Any] = {}
    g_sorted = np.sort(all_gid, kind="stable")
    for i in range(k):
        codes = np.concatenate([p[i] for p in parts_codes])
        order = np.lexsort((coders[i].order()[codes], all_gid))
        sa_cols[f"s{i + 1}"] = coders[i].decode(codes[order])
    sa_rows = pd.DataFrame({"gid": g_sorted, **sa_cols})
    assignment = pd.DataFrame({"rk": rks[placed], "gid": gid[placed]})
    noise_frame = pd.DataFrame(
        {
            "gid": [a.group for a in noise.added],
            "sa": [config.sa[a.sa] for a in noise.added],
            "replaced": [coders[a.sa].values[a.replaced] for a in noise.added],
            "noise": [coders[a.sa].values[a.noise] for a in noise.added],
            "distance": [a.distance for a in noise.added],
        },
        columns=["gid", "sa", "replaced", "noise", "distance"],
    )
    noise_frame["gid"] = noise_frame["gid"].astype("int64")
    noise_frame["distance"] = noise_frame["distance"].astype("float64")
    residual = {coders[0].values[b]: int(n) for b, n in enumerate(forming.schedule.residual) if n}
    kept = ~placed
    mean_d = noise.mean_distance()
    details: dict[str, Any] = {
        "release": release,
        "primary": config.sa[0],
        "l": list(config.ls),
        "noise_mode": config.noise,
        "starvation_threshold": config.threshold,
        "rows_pool": len(frame),
        "rows_arriving": int(np.count_nonzero(arrived == release)),
        "rows_newly_published": int(np.count_nonzero(placed)),
        "rows_kept_back": int(np.count_nonzero(kept)),
        "kept_back_by_primary": residual,
        "incorporated": forming.incorporated,
        "incorporated_into_published_groups": forming.incorporated_into_published,
        "max_starvation_published": int(starvation[placed].max()) if placed.any() else None,
        "max_starvation_waiting": int(starvation[kept].max()) if kept.any() else None,
        "new_groups": new,
        "grown_groups": len(grown),
        "noise": noise.count,
        "noise_by_sa": {config.sa[i]: sum(1 for a in noise.added if a.sa == i) for i in range(1, k)},
        "groups_noised": noise.groups_noised,
        "noise_mean_distance": None if mean_d is None or mean_d != mean_d else round(mean_d, 6),
        "seconds_forming": round(t_form, 4),
        "seconds_noise": round(t_noise, 4),
    }
    return Built(assignment, sa_rows, noise_frame, new, len(old_gids) + new, details)


def _distance_or_nan(db: Database, source: str, column: str, coder: Coder) -> np.ndarray:
    """Random noise does not need a hierarchy; when there is one, its distances are still reported."""
    try:
        return distance_matrix(db, source, column, coder)
    except BadInput:
        return np.full((coder.size, coder.size), np.nan)


# ---------------------------------------------------------------------------- the writer
def publish_release(
    db: Database,
    *,
    out: TableRef,
    new_rows: Table,
    config: StreamConfig,
    stream: Stream | None,
    hierarchy_source: str,
    run_id: int,
    replace: bool,
    progress: Progress,
    empty_check: Callable[[int, int], None] | None = None,
) -> AnonymizeResult:
    """Publish the first release (``stream`` None) or the next release of a stream from ``new_rows``.
    ``empty_check(published, received)`` is the pipeline's empty-release rule (first release)."""
    from ...anonymize import AnonymizeResult
    from ...check import evaluate

    name = out.display()
    qid_t, sa_t, marg_t = outputs(out)
    release = 1 if stream is None else stream.releases + 1
    offset = 0 if stream is None else stream.next_key
    retained = retained_ref(name)
    new_cols = [new_rows.column(c).ident for c in config.columns]
    incoming = int(db.scalar(render("catalog/row_count.sql", source=new_rows.ref)))
    if not config.null_as_value:
        check_nulls(db, new_rows, [new_rows.column(c) for c in (*config.qi, *config.sa)], incoming)
    # the stream's one row-key rule, before anything is written: no row twice, no NULL key
    keys.check_batch(db, name, config, new_rows, stored=stream is not None)

    pool = db.work_table("dec_pool")
    db.run(
        render(
            "decomposition/pool.sql",
            {"offset": offset, "release": release},
            target=pool,
            source=new_rows.ref,
            columns=new_cols,
            retained=stream.retained if stream is not None else None,
        )
    )
    prev_qid = prev_sa = prev_marg = None
    if stream is not None:
        for ref in (qid_t, sa_t, marg_t):
            if not db.exists(ref):
                raise BadInput(
                    f"the release table {ref.display()} of stream {name} is missing",
                    "a stream's three tables must stay in place between releases",
                )
        prev_qid, prev_sa, prev_marg = (db.work_table(f"dec_prev_{x}") for x in ("qid", "sa", "marginals"))
        for target, source in ((prev_qid, qid_t), (prev_sa, sa_t), (prev_marg, marg_t)):
            db.run(render("decomposition/copy.sql", target=target, source=source))
    progress.update(1, 6, "forming groups")
    built = _build(db, config, pool, release, hierarchy_source, prev_sa, prev_marg)
    if empty_check is not None:
        empty_check(len(built.assignment), incoming)
    progress.update(2, 6, "groups formed; checking")

    k = len(config.sa)
    slots_sa = [Ident(f"s{i + 1}") for i in range(k)]
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

    group = Ident(config.group_column)
    ls = list(config.ls)
    # checks before anything is written
    check_new_groups(db, sa_rows, ls, slots_sa)
    channel: dict[str, int] = {"moved": 0, "republished": 0, "sa_changed": 0, "grown": 0}
    if stream is not None:
        assert prev_sa is not None
        previous_id = _latest_release(db, name, stream.first_release)
        channel = {
            key: int(v)
            for key, v in db.records(
                render(
                    "decomposition/channel.sql",
                    {"name": name, "first_release": stream.first_release, "previous_id": previous_id},
                    assignment=assignment,
                    previous_sa=prev_sa,
                    sa_rows=sa_rows,
                    group_column=group,
                    sa=[Ident(s) for s in config.sa],
                )
            )[0].items()
        }
        if any(channel.values()):
            raise PrivacyViolation(
                f"the release would open an inference channel with earlier releases of {name}: "
                f"{channel['moved']} row(s) would change group, {channel['republished']} published twice, "
                f"{channel['sa_changed']} SA value(s) of published groups would change, {channel['grown']} "
                "published group(s) would gain rows (the difference of two releases shows them); nothing was written",
                "this is a bug in the algorithm; please report it with the run id",
            )
    else:
        previous_id = None

    progress.update(3, 6, "writing")
    sa_names = list(config.sa)
    with db.transaction():
        if stream is None and replace:
            db.run(render("decomposition/stream_forget.sql", {"name": name}))
        tables = (qid_t, sa_t, marg_t)
        private = [retained] if stream is not None else [retained, keys.keys_ref(name)]
        ownership.drop_for_release(db, out, tables, replace=replace or stream is not None, private=private)
        db.run(
            render(
                "decomposition/write_qid.sql",
                output=qid_t,
                previous=prev_qid,
                pool=pool,
                assignment=assignment,
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
                sa_rows=sa_rows,
                sa=[Ident(s) for s in config.sa],
                group_column=group,
            )
        )
        db.run(
            render(
                "decomposition/write_marginals.sql",
                output=marg_t,
                previous=prev_marg,
                pool=pool,
                assignment=assignment,
                sa=[Ident(s) for s in config.sa],
                slots=config.slots(config.sa),
            )
        )
        db.run(
            render(
                "decomposition/write_retained.sql",
                {"release": release},
                target=retained,
                pool=pool,
                assignment=assignment,
                slots=[Ident(f"c{i + 1}") for i in range(len(config.columns))],
            )
        )
        db.run(
            render(
                "decomposition/stream_rows.sql",
                {"name": name, "offset": offset, "source_name": new_rows.name, "release": release},
                source=new_rows.ref,
            )
        )
        rec = db.records(
            render(
                "decomposition/reconcile.sql",
                {
                    "name": name,
                    "release": release,
                    "first_release": stream.first_release if stream else None,
                    "sa_names": sa_names,
                },
                pool=pool,
                assignment=assignment,
                retained=retained,
                qid=qid_t,
                sa_table=sa_t,
                marginals=marg_t,
                previous_qid=prev_qid,
                previous_marginals=prev_marg,
                noise=noise,
                group_column=group,
                sa=[Ident(s) for s in config.sa],
                slots=config.slots(config.sa),
            )
        )[0]
        rec = {key: int(v) for key, v in rec.items()}
        keys.write_keys(db, name, config, new_rows, offset, first=stream is None)
        problems = _reconcile_problems(rec, incoming, len(built.noise))
        problems += keys.reconcile_keys(db, name, config, rec["stream_rows"])
        if problems:
            raise InternalError("the release does not reconcile with its source: " + "; ".join(problems))

        progress.update(4, 6, "written and reconciled; verifying")
        post = db.records(
            render(
                "decomposition/diverse.sql",
                {"ls": ls},
                target=sa_t,
                group_column=group,
                sa=[Ident(s) for s in config.sa],
            )
        )[0]
        written = table_at(db, sa_t)
        by_group = (
            evaluate(
                db,
                Inputs(
                    written,
                    (),
                    tuple(written.column(s) for s in config.sa),
                    written.column(config.group_column),
                    rec["sa_rows"],
                ),
                Distinct(tuple(ls)),
                null_as_value=True,
                prefix="verify_dec",
            )
            if rec["sa_rows"]
            else None
        )
        verified = not post["violating"] and (by_group is None or bool(by_group.satisfied))
        details = dict(built.details)
        details.update(
            {
                "stream": name,
                "tables": [qid_t.display(), sa_t.display(), marg_t.display()],
                "rows_received_total": rec["stream_rows"],
                "rows_published_total": rec["qid_rows"],
                "rows_waiting": rec["retained"],
                "groups_total": int(post["groups"]),
                "min_group_size": None if post["min_group"] is None else int(post["min_group"]),
            }
        )
        verification = {
            "model": f"distinct l={ls} per SA, on the written SA-table",
            "violating_groups": int(post["violating"]),
            "violating_by_sa": {config.sa[i]: int(post[f"v{i + 1}"]) for i in range(k)},
            "by_group": None
            if by_group is None
            else {
                "satisfied": by_group.satisfied,
                "groups": by_group.groups,
                "violating_groups": by_group.violating_groups,
            },
            "inference_channel": channel,
            "reconciliation": rec,
        }
        metrics = {
            "groups": int(post["groups"]),
            "avg_group_size": rec["qid_rows"] / post["groups"] if post["groups"] else None,
            "noise": rec["noise"],
            "noise_by_sa": details["noise_by_sa"],
            "noise_mean_distance": details["noise_mean_distance"],
            "rows_waiting": rec["retained"],
        }
        release_id = int(
            db.scalar(
                render(
                    "meta/release_insert.sql",
                    {
                        "run_id": run_id,
                        "name": name,
                        "source": new_rows.name,
                        "algorithm": "decomposition",
                        "model": "distinct",
                        "l": json.dumps(ls),
                        "qi": json.dumps(list(config.qi)),
                        "sa": json.dumps(list(config.sa)),
                        "rows_in": rec["stream_rows"],
                        "rows_published": rec["qid_rows"],
                        "rows_suppressed": 0,
                        "groups": int(post["groups"]),
                        "metrics": json.dumps(metrics, default=str),
                        "details": json.dumps(details, default=str),
                        "verified": verified,
                        "verification": json.dumps(verification, default=str),
                    },
                )
            )
        )
        db.run(
            render(
                "decomposition/release_rows.sql",
                {"release_id": release_id, "previous_id": previous_id},
                assignment=assignment,
            )
        )
        db.run(render("decomposition/noise_log.sql", {"release_id": release_id}, noise=noise))
        ownership.record_release_tables(db, out, release_id, tables)
        db.run(render("meta/release_supersede.sql", {"name": name, "release_id": release_id}))
        db.run(
            render(
                "decomposition/stream_save.sql",
                {
                    "name": name,
                    "source": hierarchy_source,
                    "config": config.to_json(),
                    "releases": release,
                    "first_release": stream.first_release if stream else release_id,
                    "next_key": offset + incoming,
                    "retained": retained.display(),
                },
            )
        )
        if not verified:
            raise PrivacyViolation(
                f"the written release violates distinct l-diversity {ls} per SA "
                f"({post['violating']} group(s)); nothing was published",
                "this is a bug in the algorithm; please report it with the run id",
            )
    progress.update(5, 6, "recorded")
    return AnonymizeResult(
        run_id=run_id,
        release_id=release_id,
        algorithm="decomposition",
        model="distinct",
        model_params={"l": ls},
        l=ls,
        rows_in=rec["stream_rows"],
        rows_published=rec["qid_rows"],
        rows_suppressed=0,
        rows_deleted=0,
        groups=int(post["groups"]),
        seconds=0.0,
        queries=0,
        output=", ".join(t.display() for t in (qid_t, sa_t, marg_t)),
        verified=verified,
        metrics=metrics,
        details=details,
        verification=verification,
    )


def check_new_groups(db: Database, sa_rows: TableRef, ls: Sequence[int], slots: Sequence[Ident]) -> None:
    """Before anything is written: every new or grown group is (l_1..l_k)-diverse."""
    pre = db.records(
        render(
            "decomposition/diverse.sql",
            {"ls": list(ls)},
            target=sa_rows,
            group_column=Ident("gid"),
            sa=list(slots),
        )
    )[0]
    if pre["violating"]:
        raise PrivacyViolation(
            f"{pre['violating']} new group(s) are not (l_1..l_k)-diverse ({list(ls)}); nothing was written",
            "this is a bug in the algorithm; please report it with the run id",
        )


def _latest_release(db: Database, name: str, first_release: int) -> int | None:
    rows = db.records(render("decomposition/history.sql", {"name": name, "first_release": first_release}))
    return int(rows[-1]["release_id"]) if rows else None


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


# ---------------------------------------------------------------------------- continuous release
def append(
    db: Database, release: str, source: str, *, quiet: bool = True, key: Any = None
) -> AnonymizeResult:
    """``ldiv release append``: publish the next release of stream ``release`` from the rows of table
    ``source`` plus the rows kept back so far (SPEC §4.3). ``key``, when given, must be the stream's key."""
    from ...catalog import output_ref
    from ...runs import recorded_run

    t0 = time.perf_counter()
    q0 = db.queries
    out = output_ref(release)
    name = out.display()
    stream = load_stream(db, name)
    if stream is None:
        raise BadInput(
            f"there is no release stream {name}",
            f"publish its first release with: ldiv anonymize DB --table T --qi ... --sa ... "
            f"--algorithm decomposition --output {release}",
        )
    ownership.check_release_targets(db, out, outputs(out), replace=True)
    new_rows = resolve_table(db, source)
    if new_rows.kind.upper() != "BASE TABLE":
        raise BadInput(
            f"{new_rows.name} is a view; a release needs a base table (its rows need stable row ids)",
            "materialize it first with CREATE TABLE ... AS SELECT",
        )
    if new_rows.ref.schema == "ldiv" or new_rows.name in {t.display() for t in outputs(out)}:
        raise BadInput(f"{new_rows.name} is part of the release itself", "append a table of new rows")
    keys.check_append_key(stream.config, name, key, new_rows)
    if not db.exists(keys.keys_ref(name)):
        raise BadInput(
            f"the private row-key table of stream {name} is missing, so ldiv_db cannot tell whether "
            f"{new_rows.name} repeats rows the stream already received",
            f"start the stream again with --replace (ldiv anonymize ... --output {release} --replace)",
        )
    with recorded_run(
        db,
        command="release append",
        algorithm="decomposition",
        source=new_rows.name,
        output=name,
        params=json.dumps({"release": name, "from": new_rows.name}),
        t0=t0,
        q0=q0,
    ) as run:
        progress = Progress("decomposition append", quiet=quiet)
        result = publish_release(
            db,
            out=out,
            new_rows=new_rows,
            config=stream.config,
            stream=stream,
            hierarchy_source=stream.source,
            run_id=run.run_id,
            replace=False,
            progress=progress,
        )
        progress.done()
        result.seconds = time.perf_counter() - t0
        result.queries = db.queries - q0
        run.metrics = result.metrics
    return result


@dataclass
class History:
    """``ldiv release history``: the releases of a stream and the rows it keeps back."""

    name: str
    threshold: int
    releases: list[dict[str, Any]]
    waiting: list[dict[str, int]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "release": self.name,
            "starvation_threshold": self.threshold,
            "releases": self.releases,
            "waiting": self.waiting,
        }

    def render_text(self) -> str:
        lines = [
            f"release stream {self.name} (starvation threshold {self.threshold})",
            f"{'#':>3} {'id':>5}  {'arrived':>8} {'published':>10} {'total':>8} {'waiting':>8} {'max P_s':>7} "
            f"{'placed':>6} {'groups':>7} {'noise':>6}  verified  created",
        ]
        for r in self.releases:
            lines.append(
                f"{r['release']:>3} {r['release_id']:>5}  {r['rows_arriving']:>8} {r['rows_newly_published']:>10} "
                f"{r['rows_published']:>8} {r['rows_waiting']:>8} {_dash(r['max_starvation_waiting']):>7} "
                f"{r['incorporated']:>6} {r['groups']:>7} {r['noise']:>6}  {'yes' if r['verified'] else 'NO':<8}  "
                f"{r['created_at']}"
            )
        if self.waiting:
            lines.append(
                "waiting now: "
                + ", ".join(f"{w['rows']} row(s) with starvation {w['starvation']}" for w in self.waiting)
            )
        else:
            lines.append("waiting now: none")
        return "\n".join(lines)


def _dash(x: Any) -> str:
    return "-" if x is None else str(x)


def history(db: Database, release: str) -> History:
    from ...catalog import output_ref

    name = output_ref(release).display()
    stream = load_stream(db, name)
    if stream is None:
        raise BadInput(f"there is no release stream {name}", "list the releases with: ldiv releases DB")
    rows = db.records(
        render("decomposition/history.sql", {"name": name, "first_release": stream.first_release})
    )
    out = []
    for r in rows:
        d = json.loads(r["details"] or "{}")
        out.append(
            {
                "release": d.get("release"),
                "release_id": int(r["release_id"]),
                "rows_arriving": d.get("rows_arriving"),
                "rows_newly_published": d.get("rows_newly_published"),
                "rows_published": int(r["rows_published"]),
                "rows_received": int(r["rows_in"]),
                "rows_waiting": d.get("rows_waiting"),
                "max_starvation_waiting": d.get("max_starvation_waiting"),
                "max_starvation_published": d.get("max_starvation_published"),
                "incorporated": d.get("incorporated"),
                "new_groups": d.get("new_groups"),
                "groups": int(r["groups"]),
                "noise": d.get("noise"),
                "verified": bool(r["verified"]),
                "created_at": str(r["created_at"]),
            }
        )
    waiting = [
        {"starvation": int(s), "rows": int(n)}
        for s, n in db.rows(render("decomposition/waiting.sql", retained=stream.retained))
    ]
    return History(name, stream.config.threshold, out, waiting)
