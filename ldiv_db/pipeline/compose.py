"""The composition check: what an attacker learns about a person from several releases of one source.

The attacker knows a target's exact QI values and that the target is in the source. In each release the
classes whose published labels cover those values are the candidates (a label covers a value when it is
the value, an ancestor of it in the QI's stored hierarchy, ``*``, or an interval ``lo-hi`` holding it:
:mod:`ldiv_db.utility.covers`); the attacker takes the union of the candidates' SA values in each
release and intersects the unions across the releases. A release that left the target's row out (deleted
it) tells nothing about the target; a published unknown (NULL) SA value stands for every value. A row is
below a release's l when fewer than that l values remain (docs/decisions/0005-composition-check.md).

All of it runs in SQL over distinct QI vectors (``sql/compose/``): per release the cover tables, its
classes (label vector → SA values), a covering join matched attribute by attribute, then the per-target
intersections as bit masks over the SA values (a row's releases are text, one character each, so
any number of releases composes). :func:`compose` is the one entry point.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..core.catalog import Column, Table, output_ref, resolve_table
from ..core.recorded import INTERVAL_ALGORITHMS, SUPPRESSION_ALGORITHMS
from ..db import Database
from ..errors import BadInput
from ..sqlgen.render import TableRef, render
from ..util.progress import Progress
from ..utility.covers import attribute_summaries, build_covers, drop_covers

WORD_BITS = 62  # SA values per BIGINT word of a mask (compose/sa_domain.sql)
WORST = 5


@dataclass(frozen=True)
class Composition:
    """What the attacker of the module docstring learns from a set of releases of one source.

    ``below[r]``: source rows left fewer SA values than release r's l; ``single``: rows left exactly one
    (always their own); ``pairs``: (release a, release b, rows left fewer than min(l_a, l_b) by a and b
    alone; where some row is below l, every pair, or those holding the new release of a publish);
    ``worst``: the rows left fewest values, as QI values and the SA values left; ``empty``: rows
    left no value at all, which only a release table changed after it was written can cause."""

    source: str
    release_ids: tuple[int, ...]
    names: tuple[str, ...]
    ls: tuple[int, ...]
    rows: int
    below: tuple[int, ...]
    single: int
    pairs: tuple[tuple[int, int, int], ...]
    worst: tuple[dict[str, Any], ...]
    seconds: float
    empty: int = 0

    @property
    def ok(self) -> bool:
        """No row is left below any release's l (a row left no value is below every l)."""
        return not any(self.below)

    def summary(self) -> str:
        """One line for the CLI."""
        parts = [f"{b:,} below l={l} ({n})" for n, l, b in zip(self.names, self.ls, self.below, strict=True)]
        verdict = "composes safely" if self.ok else "COMPOSES BELOW l"
        return (
            f"{verdict}: {len(self.names)} release{'s' if len(self.names) > 1 else ''} of {self.source}, "
            f"{self.rows:,} rows: " + ", ".join(parts) + f", {self.single:,} left one value"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "source": self.source,
            "releases": [
                {"release_id": i, "name": n, "l": l, "below": b}
                for i, n, l, b in zip(self.release_ids, self.names, self.ls, self.below, strict=True)
            ],
            "rows": self.rows,
            "single": self.single,
            "empty": self.empty,
            "pairs": [{"a": a, "b": b, "below": n} for a, b, n in self.pairs],
            "worst": list(self.worst),
            "seconds": round(self.seconds, 3),
        }

    def to_dict(self) -> dict[str, Any]:
        return self.as_json()

    def render_text(self) -> str:
        lines = [self.summary()]
        by_id = dict(zip(self.release_ids, self.names, strict=True))
        lines += [f"  {by_id[a]} + {by_id[b]}: {n:,} rows below the smaller l" for a, b, n in self.pairs]
        if self.empty:
            lines.append(f"  {self.empty:,} rows left no value: a release table changed after it was written")
        for w in self.worst:
            qi = ", ".join(f"{k}={v}" for k, v in w["qi"].items())
            lines.append(f"  {w['left']} left ({', '.join(w['values'])}) for {w['rows']} row(s) with {qi}")
        return "\n".join(lines)


@dataclass(frozen=True)
class _Release:
    """One release to compose, checked: its table, QI columns (source spelling) and l."""

    release_id: int
    name: str
    algorithm: str
    table: Table
    qi: tuple[Column, ...]
    l: int
    deleted: int


def release_ids(db: Database, names: Sequence[str]) -> list[int]:
    """The recorded release written last to each named table (``ldiv compose --release NAME``)."""
    out = []
    for name in names:
        rows = db.records(render("report/release.sql", {"name": output_ref(name).display()}))
        if not rows:
            raise BadInput(
                f"{name} is not a release recorded in this database",
                "name a table that ldiv anonymize wrote (ldiv releases lists them)",
            )
        out.append(int(rows[0]["release_id"]))
    return out


def compose(
    db: Database,
    release_ids: Sequence[int],
    *,
    progress: Progress | None = None,
    worst: int = WORST,
    pairs_with: int | None = None,
) -> Composition:
    """The composition check of ``release_ids`` (releases of one source): THE place the counts are made.
    Reads only; its work tables are dropped when it returns (kept with ``keep_work``), and a failure
    leaves them to the caller's ``db.drop_work_tables()``. ``worst``: how many of the worst rows to list.
    ``pairs_with``: count only the pairs holding this release (a new release beside the published ones,
    whose own pairs were counted when each was published): m − 1 pairs instead of m(m − 1)/2, by the
    same statements as every pair."""
    t0 = time.perf_counter()
    source, sa, releases = _releases(db, release_ids)
    union = _union_qi(releases)
    _refuse_nulls(db, source, union)
    tables = _Work(db)
    qi = [c.ident for c in union]
    db.run(render("compose/value_codes.sql", target=tables.codes, source=source.ref, qi=qi))
    positions = [r for r, rel in enumerate(releases, 1) if rel.deleted]
    db.run(
        render(
            "compose/keys.sql",
            {"deleting": [releases[r - 1].release_id for r in positions]},
            target=tables.keys,
            source=source.ref,
            codes=tables.codes,
            qi=qi,
            positions=positions,
            m=len(releases),
        )
    )
    vs = [f"v{i}" for i in range(1, len(union) + 1)]
    db.run(render("compose/points.sql", target=tables.points, keys=tables.keys, vs=vs))
    db.run(
        render("compose/sa_domain.sql", target=tables.domain, source=source.ref, sa=sa.ident, width=WORD_BITS)
    )
    counts = db.one(render("compose/distinct_counts.sql", points=tables.points, vs=vs))
    names = [c.name for c in union]
    units, masks, classes = [], [], []
    for r, rel in enumerate(releases, 1):
        if progress is not None:
            progress.update(r - 1, len(releases), rel.name)
        at = [names.index(c.name) for c in rel.qi]
        # the covering join takes the QIs with the fewest distinct values first
        order = sorted(range(len(at)), key=lambda i: (int(counts[at[i]]), i))
        sizes = [int(counts[a]) for a in at]
        found = _units(db, tables, source, sa, rel, r, order, at, sizes)
        units.append(found[0])
        masks.append(found[1])
        classes.append(found[2])
    db.run(render("compose/shared.sql", target=tables.shared, masks_of=masks, classes_of=classes))
    result = _result(db, tables, (source, releases, units, union), worst, t0, pairs_with)
    tables.drop()
    if progress is not None:
        progress.done(result.summary())
    return result


class _Work:
    """The check's work tables (the per-release ones are numbered by the release's position)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.made: list[TableRef] = []
        self.codes = self.of("value_codes")
        self.keys = self.of("keys")
        self.points = self.of("points")
        self.domain = self.of("sa_domain")
        self.combos = self.of("combos")
        self.driving = self.of("driving")
        self.words = self.of("words")
        self.membership = self.of("membership")
        self.values = self.of("values")
        self.shared = self.of("shared")
        self.own = self.of("pair_units")

    def of(self, what: str, r: int | None = None) -> TableRef:
        ref = self.db.work_table(f"compose_{what}" + ("" if r is None else f"_{r}"))
        self.made.append(ref)
        return ref

    def drop(self) -> None:
        """Drop the check's work tables, unless the database keeps work tables (``--keep-work``)."""
        if not self.db.keep_work:
            for ref in self.made:
                self.db.run(render("catalog/drop_work_table.sql", target=ref))


def _releases(db: Database, ids: Sequence[int]) -> tuple[Table, Column, list[_Release]]:
    """The releases' records, checked: one source, one SA, each with an l and its table in place."""
    ids = [int(i) for i in ids]
    if not ids:
        raise BadInput("no release to compose", "name the releases: --release A --release B")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise BadInput(f"release {twice[0]} is given twice", "name every release once")
    most = db.max_columns
    if most is not None and 2 * len(ids) + 4 > most:  # compose/driving.sql: two columns per release
        raise BadInput(
            f"the composition check of {len(ids)} releases builds tables of {2 * len(ids) + 4} columns, and "
            f"this engine ({db.dialect}) allows {most}: it composes at most {(most - 4) // 2} releases at once",
            f"compose them in sets of at most {(most - 4) // 2} (ldiv compose DB --release A --release B ...) "
            "or on a DuckDB copy of the source and its releases; a publish beyond that takes "
            "--accept-composition once you have checked it so",
        )
    recs = {int(r["release_id"]): r for r in db.records(render("compose/releases.sql", {"ids": ids}))}
    missing = [i for i in ids if i not in recs]
    if missing:
        raise BadInput(f"no release {missing[0]} is recorded in this database", "ldiv releases lists them")
    ordered = [recs[i] for i in ids]
    sources = sorted({str(r["source"]) for r in ordered})
    if len(sources) > 1:
        raise BadInput(
            f"the releases are of different sources ({', '.join(sources)})",
            "compose releases of one source: what one release tells about another table's rows is not this check",
        )
    source = resolve_table(db, sources[0])
    sas = {tuple(json.loads(str(r["sa"]))) for r in ordered}
    if len(sas) > 1 or len(next(iter(sas))) != 1:
        raise BadInput(
            "the composition check needs releases of one and the same sensitive attribute, one SA each; "
            f"these publish {' / '.join(','.join(s) for s in sorted(sas))}",
            "compose releases of the same single SA",
        )
    sa = source.column(next(iter(sas))[0])
    return source, sa, [_release(db, source, r) for r in ordered]


def _release(db: Database, source: Table, rec: dict[str, Any]) -> _Release:
    rid, name, model = int(rec["release_id"]), str(rec["name"]), str(rec["model"])
    what = f"release {rid} ({name})"
    if rec["algorithm"] == "decomposition":
        raise BadInput(
            f"{what} is a Decomposition+ release: the composition check does not support it (its QIs and "
            "SA are published in separate tables linked by group, and its noise is not modelled)",
            "compose the other releases; docs/decisions/0005-composition-check.md says why",
        )
    if rec["superseded_by"] is not None:
        raise BadInput(
            f"{what} was replaced by release {rec['superseded_by']}: its table holds that release now",
            f"compose release {rec['superseded_by']} instead",
        )
    ls = json.loads(str(rec["l"])) if rec["l"] else None
    if not ls or ls[0] is None:
        raise BadInput(
            f"{what} has model {model}, which promises no l: the check counts the rows left fewer than "
            "l SA values",
            "compose releases of an l-diversity model (distinct, entropy, recursive, frequency, ...)",
        )
    try:
        table = resolve_table(db, name)
    except BadInput:
        raise BadInput(
            f"{what}: its table {name} is missing (dropped or renamed after it was written)",
            "compose releases whose tables exist; ldiv releases lists them",
        ) from None
    qi = tuple(source.column(q) for q in json.loads(str(rec["qi"])))
    for c in qi:
        table.column(c.name)
    deleted = int(db.scalar(render("compose/deleted_count.sql", {"release_id": rid})))
    return _Release(rid, table.ref.display(), str(rec["algorithm"]), table, qi, int(ls[0]), deleted)


def _union_qi(releases: Sequence[_Release]) -> list[Column]:
    """Every QI some release publishes, in first-seen order: the attacker knows them all."""
    out: list[Column] = []
    for rel in releases:
        out += [c for c in rel.qi if c.name not in {o.name for o in out}]
    return out


def _refuse_nulls(db: Database, source: Table, qi: Sequence[Column]) -> None:
    """A NULL QI value has no label that covers it: the check refuses such a source by name."""
    row = db.one(render("catalog/null_counts.sql", source=source.ref, columns=[c.ident for c in qi]))
    for c, n in zip(qi, row[1:], strict=True):
        if n:
            raise BadInput(
                f"{source.ref.display()}.{c.name} holds {n} NULL value(s): the composition check does not "
                "support NULL QI values",
                "compose releases of a source without NULLs in its QI columns",
            )


def _units(
    db: Database,
    tables: _Work,
    source: Table,
    sa: Column,
    rel: _Release,
    r: int,
    order: Sequence[int],
    at: Sequence[int],
    sizes: Sequence[int],
) -> tuple[tuple[TableRef, TableRef], TableRef, TableRef]:
    """Release ``rel``'s tables ((units, unit masks), class masks, classes): the candidates of a target
    vector are the covering classes but those covering every target (their values are the release's
    shared mask, ``compose/shared.sql``); its unit (``compose/units.sql``) names their union, the one
    class's masks or the target's own OR of theirs (``compose/unit_masks.sql``). ``order``: the release's QI
    positions (0-based) in join order; ``at``: the targets' QI position (0-based) of each release QI;
    ``sizes``: the number of target values of each release QI."""
    rqi = [rel.table.column(c.name).ident for c in rel.qi]
    intervals = [c.is_numeric for c in rel.qi] if rel.algorithm in INTERVAL_ALGORITHMS else None
    flat = rel.algorithm in SUPPRESSION_ALGORITHMS  # '*' is a suppressed cell, whatever hierarchy is stored
    covers = build_covers(db, source, rel.table, rel.qi, rqi, intervals, flat=flat)
    attribute_summaries(db, covers, source, rel.table, rel.qi)  # refuses labels that cover nothing
    ls = [f"l{i}" for i in range(1, len(rel.qi) + 1)]
    cover, masks, classes = tables.of("cover", r), tables.of("masks", r), tables.of("classes", r)
    db.run(
        render(
            "compose/cover_codes.sql",
            target=cover,
            cover=covers.cover,
            labels=covers.labels,
            codes=tables.codes,
            at=[u + 1 for u in at],
        )
    )
    db.run(
        render(
            "compose/class_masks.sql",
            target=masks,
            release=rel.table.ref,
            rqi=rqi,
            ls=ls,
            sa=rel.table.column(sa.name).ident,
            labels=covers.labels,
            domain=tables.domain,
        )
    )
    drop_covers(db, covers)
    db.run(render("compose/classes.sql", target=classes, masks=masks, cover=cover, ls=ls, sizes=list(sizes)))
    prev: TableRef | None = None
    for j, i in enumerate(order):
        step = tables.of(f"covering{j}", r)
        db.run(
            render(
                "compose/covering.sql",
                target=step,
                prev=prev,
                points=tables.points,
                classes=classes,
                cover=cover,
                cols=[f"v{at[x] + 1}" for x in order[: j + 1]],
                attr=i + 1,
                label=ls[i],
                last=j == len(order) - 1,
            )
        )
        prev = step
    assert prev is not None  # a release publishes at least one QI
    units, umasks = tables.of("units", r), tables.of("unit_masks", r)
    db.run(render("compose/units.sql", target=units, pairs=prev))
    db.run(render("compose/unit_masks.sql", target=umasks, units=units, pairs=prev, masks=masks))
    return (units, umasks), masks, classes


def _result(
    db: Database,
    tables: _Work,
    made: tuple[Table, Sequence[_Release], Sequence[tuple[TableRef, TableRef]], Sequence[Column]],
    worst: int,
    t0: float,
    pairs_with: int | None,
) -> Composition:
    source, releases, units, union = made
    vs = [f"v{i}" for i in range(1, len(union) + 1)]
    m, ls = len(releases), [rel.l for rel in releases]
    row = _counted(db, tables, units, vs, ls)
    below = tuple(int(x) for x in row[3 : 3 + m])
    ids = [rel.release_id for rel in releases]
    pairs = [
        p for p in combinations(range(m), 2) if pairs_with is None or pairs_with in (ids[p[0]], ids[p[1]])
    ]
    if m == 2 and pairs:  # the pair is the whole set
        counts = [min(below)]
    elif any(below) and pairs:
        only = None if pairs_with is None else ids.index(pairs_with) + 1
        counts = _pairs_below(db, tables, units, ls, pairs, only)
    else:  # a pair leaves every row at least the values all of them leave it, which no l exceeds
        counts = [0] * len(pairs)
    pair_rows = tuple(
        (releases[a].release_id, releases[b].release_id, n) for (a, b), n in zip(pairs, counts, strict=True)
    )
    return Composition(
        source=source.ref.display(),
        release_ids=tuple(rel.release_id for rel in releases),
        names=tuple(rel.name for rel in releases),
        ls=tuple(ls),
        rows=int(row[0]),
        below=below,
        single=int(row[1]),
        pairs=pair_rows,
        worst=_worst(db, tables, union, vs, m, worst),
        seconds=time.perf_counter() - t0,
        empty=int(row[2]),
    )


def _counted(
    db: Database,
    tables: _Work,
    units: Sequence[tuple[TableRef, TableRef]],
    vs: Sequence[str],
    ls: Sequence[int],
) -> tuple[Any, ...]:
    """The values every target is left by all the releases (``tables.values``), and their counts: rows,
    single, empty, below each release's l. One set of releases per statement, so a statement grows with
    the releases, not with their pairs."""
    m = len(units)
    _membership(db, tables, units, vs)
    db.run(
        render(
            "compose/values_left.sql",
            target=tables.values,
            keys=tables.keys,
            points=tables.points,
            domain=tables.domain,
            membership=tables.membership,
            combos=tables.combos,
            shared=tables.shared,
            vs=vs,
            m=m,
        )
    )
    return db.one(render("compose/summary.sql", {"ls": list(ls)}, values=tables.values, m=m))


def _pairs_below(
    db: Database,
    tables: _Work,
    units: Sequence[tuple[TableRef, TableRef]],
    ls: Sequence[int],
    pairs: Sequence[tuple[int, int]],
    only: int | None,
) -> list[int]:
    """Per pair (0-based positions, in ``pairs``' order), the rows the two releases alone leave fewer
    than the smaller of their l values: two statements for all the pairs, however many releases, over
    the combinations and masks ``_counted`` made for the whole set. ``only``: the position (1-based) of
    the release whose pairs alone are counted (``pairs`` then holds those only), or None for every pair."""
    most = max(min(ls[a], ls[b]) for a, b in pairs)
    db.run(
        render(
            "compose/pair_units.sql",
            {"most": most},
            target=tables.own,
            driving=tables.driving,
            values=tables.values,
            umasks=[u[1] for u in units],
        )
    )
    rows = db.rows(
        render(
            "compose/pair_counts.sql",
            {"ls": list(ls), "most": most},
            values=tables.values,
            shared=tables.shared,
            own=tables.own,
            domain=tables.domain,
            m=len(ls),
            only=only,
        )
    )
    got = {(int(a) - 1, int(b) - 1): int(n) for a, b, n in rows}
    return [got[p] for p in pairs]


def _membership(
    db: Database,
    tables: _Work,
    units: Sequence[tuple[TableRef, TableRef]],
    vs: Sequence[str],
) -> None:
    """The combinations of units (``compose/combos.sql``) and their masks on the words that can hold a
    value of the releases' intersection (``compose/membership.sql``)."""
    refs = [u[0] for u in units]
    db.run(
        render(
            "compose/combos.sql",
            target=tables.combos,
            keys=tables.keys,
            points=tables.points,
            units=refs,
            vs=list(vs),
        )
    )
    shared_words = db.one(render("compose/shared_counts.sql", shared=tables.shared, m=len(units)))
    # every release's unit and unit-mask tables, and whether it has no shared mask
    per: dict[str, Any] = {
        "units": refs,
        "umasks": [u[1] for u in units],
        "noshared": [int(w) == 0 for w in shared_words],
    }
    db.run(render("compose/driving.sql", target=tables.driving, combos=tables.combos, **per))
    db.run(render("compose/words.sql", target=tables.words, driving=tables.driving, **per))
    db.run(
        render(
            "compose/membership.sql",
            target=tables.membership,
            words=tables.words,
            driving=tables.driving,
            **per,
        )
    )


def _worst(
    db: Database, tables: _Work, union: Sequence[Column], vs: Sequence[str], m: int, worst: int
) -> tuple[dict[str, Any], ...]:
    """The ``worst`` targets left fewest values: QI values and the SA values left, never a row id."""
    if worst <= 0:
        return ()
    rows = db.rows(
        render(
            "compose/worst.sql",
            {"worst": worst},
            values=tables.values,
            points=tables.points,
            membership=tables.membership,
            shared=tables.shared,
            codes=tables.codes,
            domain=tables.domain,
            vs=list(vs),
            m=m,
        )
    )
    k = len(union)
    return tuple(
        {
            "qi": {c.name: v for c, v in zip(union, row[2 : 2 + k], strict=True)},
            "values": [str(x) for x in (row[2 + k] or [])],
            "left": int(row[0]),
            "rows": int(row[1]),
        }
        for row in rows
    )
