"""``ldiv check``: the privacy statistics of any table (a release of ldiv_db or of another tool) and the
verdict of a chosen model, computed in SQL on the compressed partition.

The partition (:func:`ldiv_db.core.classes.partition_keys`): on a release ldiv_db recorded, its classes — its
published group column with the QI labels, the finest partition the table reveals (the labels for a
release written without a group column); on any other table the QI values, or the ``--group-column``
named."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from ..core import ownership
from ..core.catalog import resolve_table
from ..core.classes import ClassFacts, describe, partition_keys, recorded_group_column
from ..core.evaluator import SqlEvaluator
from ..core.inputs import NULL_HINT, Inputs, as_list, resolve_inputs
from ..core.run_flags import CheckFlags, api_keys, parse_flags
from ..core.stats import PartitionSummary, RecursiveBound, Verdict
from ..db import Database
from ..errors import BadInput, InternalError
from ..privacy import AllOf, PrivacyModel, TCloseness
from ..privacy.base import sql_text
from ..privacy.baseline import DistributionModel, Largest, on_release
from ..privacy.spec import ModelSpec, model_spec
from ..sqlgen.render import TableRef, render
from ..util.frame_convert import FrameResult, to_library
from ..util.lazy import library
from ..util.words import number

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = library("pandas")

T = TypeVar("T")
EVERY_CLASS = 2**62  # ``worst=None``: every violating class is listed


def _frac(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


@dataclass
class SaStats:
    """Statistics of one SA over the partition."""

    name: str
    summary: PartitionSummary
    recursive: list[RecursiveBound]

    def to_dict(self) -> dict[str, Any]:
        s = self.summary
        return {
            "distinct_l": s.distinct_l,
            "entropy_l": s.entropy_l,
            "frequency_l": None if s.frequency_l is None else float(s.frequency_l),
            "frequency_l_exact": _frac(s.frequency_l),
            "recursive": [{"l": b.l, "c_above": str(b.c_above)} for b in self.recursive],
        }


@dataclass
class CheckResult(FrameResult):
    table: str
    keys: list[str]
    sa: list[str]
    rows: int
    groups: int
    k: int
    per_sa: list[SaStats]
    model: PrivacyModel | None = None
    satisfied: bool | None = None
    violating_groups: int = 0
    violating_rows: int = 0
    worst: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    queries: int = 0
    sizes: ClassFacts | None = None  # the classes' size histogram (count, k, risk)
    partition: str = ""  # the partition in words (:func:`ldiv_db.core.classes.describe`)
    largest: dict[str, Largest] = field(default_factory=dict)  # t, delta, beta: the largest over the classes

    # The weakest SA decides the table-level numbers.
    @property
    def distinct_l(self) -> int:
        return min(s.summary.distinct_l for s in self.per_sa)

    @property
    def entropy_l(self) -> float | None:
        values = [s.summary.entropy_l for s in self.per_sa if s.summary.entropy_l is not None]
        return min(values) if values else None

    @property
    def frequency_l(self) -> Fraction | None:
        values = [s.summary.frequency_l for s in self.per_sa if s.summary.frequency_l is not None]
        return min(values) if values else None

    @property
    def recursive(self) -> list[RecursiveBound]:
        """Per l from 2 to the distinct l, the largest c_above over the SAs: one pass over their bounds
        (a class can hold thousands of values, each SA a bound per l)."""
        top = self.distinct_l
        largest: dict[int, Fraction] = {}
        for s in self.per_sa:
            for b in s.recursive:
                if 2 <= b.l <= top and (b.l not in largest or b.c_above > largest[b.l]):
                    largest[b.l] = b.c_above
        return [RecursiveBound(l_value, largest[l_value]) for l_value in sorted(largest)]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "table": self.table,
            "keys": self.keys,
            "sa": self.sa,
            "partition": self.partition,
            "classes": self.groups,
            "rows": self.rows,
            "k": self.k,
            "risk": None if self.sizes is None else self.sizes.risk.to_dict(),
            "distinct_l": self.distinct_l,
            "entropy_l": self.entropy_l,
            "frequency_l": None if self.frequency_l is None else float(self.frequency_l),
            "frequency_l_exact": _frac(self.frequency_l),
            "recursive": [{"l": b.l, "c_above": str(b.c_above)} for b in self.recursive],
        }
        if len(self.per_sa) > 1:
            d["per_sa"] = {s.name: s.to_dict() for s in self.per_sa}
        if self.model is not None:
            d.update(
                {
                    "model": self.model.name,
                    "model_params": self.model.params(),
                    "satisfied": self.satisfied,
                    "violating_classes": self.violating_groups,
                    "violating_rows": self.violating_rows,
                    "worst": self.worst,
                }
            )
            for key, big in self.largest.items():
                d[f"largest_{key}"] = big.to_dict()["value"]
                d[f"largest_{key}_exact"] = big.to_dict()["exact"]
        d["seconds"] = round(self.seconds, 4)
        d["queries"] = self.queries
        return d

    def to_pandas(self) -> pd.DataFrame:
        """The table-level statistics and verdict as one row (:meth:`to_dict`'s scalar entries)."""
        return pd.DataFrame([{k: v for k, v in self.to_dict().items() if not isinstance(v, (list, dict))}])

    def violations(self, library: str = "pandas") -> Any:
        """The violating classes the verdict lists (the ``worst`` asked for; ``worst=None``: all), worst
        first: one row per class, its key values (QI values or group column) and its size."""
        rows = [{**w["key"], "size": w["size"]} for w in self.worst]
        return to_library(pd.DataFrame(rows, columns=[*self.keys, "size"]), library)

    def render_text(self) -> str:
        lines = [
            f"table        {self.table}",
            f"classes by   {self.partition or ', '.join(self.keys)}",
            f"SA           {', '.join(self.sa)}",
            f"rows         {number(self.rows)}",
            f"classes      {number(self.groups)}",
            f"k            {number(self.k)}  (smallest class)",
            f"distinct l   {self.distinct_l}",
            f"entropy l    {_fmt(self.entropy_l)}  (exp of the smallest class entropy)",
            f"frequency l  {_fmt(None if self.frequency_l is None else float(self.frequency_l))}"
            f"  (= {_frac(self.frequency_l)}, min |G|/h(G))",
        ]
        if self.recursive:
            strongest = ", ".join(f"l={b.l}: c>{_fmt(float(b.c_above))}" for b in self.recursive[:8])
            lines.append(f"recursive    {strongest}" + (" ..." if len(self.recursive) > 8 else ""))
        else:
            lines.append("recursive    none (some class has fewer than 2 distinct values)")
        if len(self.per_sa) > 1:
            for s in self.per_sa:
                lines.append(
                    f"  SA {s.name}: distinct l {s.summary.distinct_l}, entropy l {_fmt(s.summary.entropy_l)}, "
                    f"frequency l {_frac(s.summary.frequency_l)}"
                )
        if self.model is not None:
            verdict = "SATISFIED" if self.satisfied else "VIOLATED"
            lines.append(f"model        {self.model.describe()}: {verdict}")
            for key, big in self.largest.items():
                exact = f"  (= {big.exact})" if big.exact is not None else ""
                lines.append(f"{'largest ' + key:<12} {_fmt(big.value)}{exact}  (over the classes)")
            if not self.satisfied:
                lines.append(
                    f"violating    {number(self.violating_groups)} classes, {number(self.violating_rows)} rows"
                )
                for w in self.worst:
                    key = ", ".join(f"{k}={'NULL' if v is None else v}" for k, v in w["key"].items())
                    lines.append(f"  worst      [{key}] size {number(w['size'])}")
        return "\n".join(lines)


def _fmt(x: float | None) -> str:
    if x is None:
        return "n/a"
    return f"{x:.6g}"


def check(
    db: Any,
    table: str,
    qi: str | Sequence[str] | None,
    sa: str | Sequence[str],
    *,
    model: str | ModelSpec | None = None,
    flags: CheckFlags | None = None,
    **options: Any,
) -> CheckResult:
    """Statistics of ``table`` grouped into its classes and, with ``model``, the verdict of that privacy
    model (its parameters as keywords, or ``model`` a ModelSpec). ``options``: the model's parameters
    and, unless ``flags`` gives them validated, the flags of :class:`~ldiv_db.core.run_flags.CheckFlags`
    (``worst=None``: every violating class). The classes: by ``group_column`` where it is given; on a
    release ldiv_db recorded, by its published group column and the QI labels (with ``by_labels``: its
    label classes, the labels alone, the coarser partition a release also reveals); else by the QI
    values. ``db`` is a path, a PostgreSQL URL, a ``spark://`` session, a duckdb connection or a
    Database."""
    t0 = time.perf_counter()
    model_options = dict(options)
    if flags is None:
        flags = check_flags(model_options)
    spec = model_spec(model, None, model_options)
    if spec.l == "auto":
        raise BadInput(
            "check takes l as numbers; 'auto' is for anonymize", "give --l 3 (or one per SA: --l 5,3)"
        )
    database = Database.open(db, mode="read")
    q0 = database.queries
    try:
        published = None
        resolved = resolve_table(database, table)
        own = ownership.owner(database, resolved.ref)
        group_column = flags.group_column
        if group_column is None and not flags.by_labels and own is not None:
            # a recorded release: its classes (ldiv_db/core/classes.py)
            published = recorded_group_column(database, own.release_id, resolved)
        # --null-sa-unknown names the SA's NULLs, --null-as-value everyone else's where both are given
        sa_null_value = flags.null_as_value and not flags.null_sa_unknown
        # the release's record, read once: its suppressed SA values and its source's SA distribution
        record = None if own is None else release_record(database, own.release_id)
        hint = NULL_HINT
        if own is not None and record is not None:
            hint = suppressed_sa_hint(record, own.release_id, as_list(sa), sa_null_value)
        inputs = resolve_inputs(
            database,
            resolved,
            qi,
            sa,
            group_column=group_column or published,
            null_as_value=flags.null_as_value,
            null_sa_unknown=flags.null_sa_unknown,
            null_hint=hint,
        )
        if published is not None:
            inputs = dataclasses.replace(inputs, published_group=True)
        privacy = spec.build(inputs)
        if privacy is not None:
            spec.check_values(database, inputs, strict=False)
            if published is not None or group_column is None:
                privacy = release_model(database, inputs, privacy, record)
        return evaluate(
            database, inputs, privacy, null_as_value=sa_null_value, worst=flags.worst, started=(t0, q0),
            split=True,
        )  # fmt: skip
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()


def release_record(db: Database, release_id: int) -> dict[str, Any] | None:
    """Release ``release_id``'s source, SA columns and verification as recorded
    (``meta/release_source.sql``: JSON as text), or None if it has no record."""
    rows = db.records(render("meta/release_source.sql", {"release_id": release_id}))
    return rows[0] if rows else None


def suppressed_sa_hint(
    record: Mapping[str, Any], release_id: int, sa: Sequence[str], sa_null_value: bool
) -> str:
    """The fix a refused NULL names on release ``release_id`` (its ``record``: :func:`release_record`)
    checked with the SA columns ``sa``. Where its
    run suppressed values of those SAs, it published them as NULL (l+-Optimize's vioSA / allSA; a source
    SA holding NULL is refused there): a NULL SA value is then a suppressed one, which
    ``--null-as-value`` would count as one more value — a class of one value and two suppressed ones
    would pass distinct 2-diversity. That reading is refused, and the hint names ``--null-sa-unknown``
    (the reading the release was verified with)."""
    recorded = json.loads(record["sa"]) if record["sa"] else []
    verification = json.loads(record["verification"]) if record["verification"] else {}
    rec = verification.get("reconciliation") if isinstance(verification, dict) else None
    suppressed = int(rec.get("sa_suppressed") or 0) if isinstance(rec, dict) else 0
    ours = {str(c).lower() for c in recorded} if isinstance(recorded, list) else set()
    if not suppressed or not any(c.lower() in ours for c in sa):  # another column checked as the SA
        return NULL_HINT
    fix = (
        f"pass --null-sa-unknown: release {release_id} suppressed {number(suppressed)} SA "
        f"value{'' if suppressed == 1 else 's'} and published {'it' if suppressed == 1 else 'them'} as NULL; "
        "a suppressed value counts in its class's size and is no value, as the release was verified"
    )
    if sa_null_value:
        raise BadInput(
            "--null-as-value would count the SA's NULLs as one value of their own, but on this release a "
            "NULL SA value is a suppressed one",
            f"{fix}; with --null-as-value too, NULL stays a value in the QIs",
        )
    return f"{fix}; --null-as-value takes a NULL QI value as a value of its own"


def check_flags(options: dict[str, Any]) -> CheckFlags:
    """The API's check flags, taken out of ``options`` and validated (the rest are the model's)."""
    given = {k: options.pop(k) for k in api_keys(CheckFlags) if k in options}
    every = "worst" in given and given["worst"] is None
    flags = parse_flags(CheckFlags, given, "api")
    return dataclasses.replace(flags, worst=EVERY_CLASS) if every else flags


def release_model(
    db: Database, inputs: Inputs, privacy: PrivacyModel, record: Mapping[str, Any] | None
) -> PrivacyModel:
    """On a release ldiv_db recorded (``record``: :func:`release_record`; None for any other table), the
    distribution models judge against the source's SA distribution (recorded with its verification):
    :func:`ldiv_db.privacy.baseline.on_release`."""

    if record is None or not any(isinstance(m, DistributionModel) for m in privacy.components()):
        return privacy
    verification = json.loads(record["verification"]) if record["verification"] else None
    source = resolve_table(db, str(record["source"]))

    def counts() -> dict[int, list[tuple[str | None, int]]]:
        out: dict[int, list[tuple[str | None, int]]] = {}
        for s, col in enumerate(inputs.sa, 1):
            q = render("catalog/sa_counts.sql", source=source.ref, sa=source.column(col.name).ident)
            out[s] = [(sql_text(v), int(n)) for v, n in db.rows(q)]
        return out

    model = on_release(privacy, verification, counts)
    for m in model.components():
        if isinstance(m, TCloseness):
            m.table = source.name  # the SA's hierarchy is stored for the source
    return model


def evaluate(
    db: Database,
    inputs: Inputs,
    privacy: PrivacyModel | None,
    *,
    null_as_value: bool = False,
    worst: int = 5,
    started: tuple[float, int] | None = None,
    prefix: str = "check",
    split: bool = False,
    parts: int | None = None,
    profile: bool = True,
    on_stats: Callable[[TableRef], None] | None = None,
) -> CheckResult:
    """Run the statistics (and the model) on resolved inputs; used by check and by release verification.

    With ``split`` (a read of committed data: ``check``), the groups are divided among the sessions the
    engine offers for the source's size (:meth:`Database.snapshot_sessions`: several PostgreSQL sessions
    on one snapshot above 200,000 rows), each part built and judged beside the others, and the parts'
    results merged exactly — a group is never split. ``parts`` forces that many parts (on one session
    they run one after another): the tests compare a split evaluation with the whole one. ``started``:
    the caller's start (perf_counter seconds, queries), for the result's seconds and query count.
    ``profile`` False: a caller that reads the verdict and the partition's size alone (a release's
    verification) gets no recursive (c,l) profile — a statistic no verdict here is decided by, two
    statements over the histogram — and every SA's ``recursive`` list is empty (``on_stats``: _hand_stats)."""
    t0, q0 = (time.perf_counter(), db.queries) if started is None else started
    keys = partition_keys(inputs)
    splittable = (split or parts is not None) and (privacy is None or privacy.per_part)
    with db.snapshot_sessions(inputs.rows, split=splittable) as sessions:
        if splittable and parts is not None and len(sessions) == 1:
            sessions = sessions * parts
        n = len(sessions)
        shared = len({id(session) for session in sessions}) < n  # then the parts name their tables apart
        evs = [
            SqlEvaluator(
                session,
                inputs.table.ref,
                keys,
                [c.ident for c in inputs.sa],
                null_as_value=null_as_value,
                prefix=f"{prefix}_p{i}" if shared else prefix,  # alike: translated once for all sessions
                part=(i, n),
                stats_only=split,
                rows=inputs.rows,
            )
            for i, session in enumerate(sessions)
        ]

        def built(ev: SqlEvaluator) -> tuple[list[PartitionSummary], list[tuple[int, int]], Verdict | None]:
            # the verdict first: it is read in one statement with the statistics' summary; split, each
            # part judges at once, so its session works on without waiting for the others
            judged = None if privacy is None else ev.judge(privacy, worst)
            return ev.summary(), ev.class_sizes(), judged

        firsts = _each(evs, built)
        summaries = merge_summaries([f[0] for f in firsts])
        max_ls = [s.distinct_l for s in summaries]
        bounds = merge_profiles(_each(evs, lambda ev: ev.recursive_profile(max_ls))) if profile else {}
        result = CheckResult(
            table=inputs.table.name,
            keys=[k.name for k in keys],
            sa=[c.name for c in inputs.sa],
            rows=summaries[0].rows,
            groups=summaries[0].groups,
            k=summaries[0].k,
            per_sa=[
                SaStats(c.name, s, bounds.get(s.s, [])) for c, s in zip(inputs.sa, summaries, strict=True)
            ],
            sizes=ClassFacts.of([p for f in firsts for p in f[1]]),
            partition=describe(
                inputs.group.name if inputs.group else None,
                [c.name for c in inputs.qi] if inputs.group is None or inputs.published_group else [],
            ),
        )
        if privacy is not None:
            result.model = privacy
            _merge_verdicts(result, evs, privacy, [f[2] for f in firsts], worst)
        _hand_stats(evs, on_stats)
    result.seconds, result.queries = time.perf_counter() - t0, db.queries - q0
    return result


def _hand_stats(evs: Sequence[SqlEvaluator], on_stats: Callable[[TableRef], None] | None) -> None:
    """``on_stats`` (if any) called with the group statistics table (partition/group_stats.sql's columns)
    of a whole, not split, evaluation, built if it was not: a caller's figures of the same partition."""
    if on_stats is None:
        return
    if len(evs) != 1:
        raise InternalError("on_stats reads the statistics of a whole evaluation, not of parts")
    on_stats(evs[0].build().stats)


def _merge_verdicts(
    result: CheckResult,
    evs: list[SqlEvaluator],
    privacy: PrivacyModel,
    judged: list[Verdict | None],
    worst: int,
) -> None:
    """The verdict of the whole from the parts': violations add up, the worst groups of all parts are
    ordered as one verdict orders them (severity, then size, then id) and named by their keys."""
    parts = [(i, v) for i, v in enumerate(judged) if v is not None]  # every part judged itself
    result.violating_groups = sum(v.violating_groups for _, v in parts)
    result.violating_rows = sum(v.violating_rows for _, v in parts)
    result.satisfied = result.violating_groups == 0
    if len(evs) == 1:
        result.worst = evs[0].group_keys(list(parts[0][1].worst_gids))
        result.largest = largest_measures(evs[0], privacy)
        return
    ranked = sorted((-sev, -size, gid, i) for i, v in parts for sev, size, gid in v.worst)[:worst]
    if not any(ev.exact_ids for ev in evs):  # a hashed id names its group alike in every part: one lookup
        result.worst = evs[0].group_keys([gid for *_, gid, _ in ranked])
        return
    mine = [[gid for *_, gid, part in ranked if part == i] for i in range(len(evs))]  # each part's own ids
    named = _each(evs, lambda ev: {g["gid"]: g for g in ev.group_keys(mine[ev.part[0]])})
    result.worst = [named[part][gid] for *_, gid, part in ranked]


MEASURES = {"t-closeness": "t", "delta-disclosure": "delta", "beta-likeness": "beta"}


def largest_measures(ev: SqlEvaluator, privacy: PrivacyModel) -> dict[str, Largest]:
    """The largest t, δ or β over the classes, from the verdict tables the model's ``apply`` wrote."""
    if isinstance(privacy, AllOf):
        tables = list(zip(privacy.parts, privacy.verdicts, strict=True))
    else:
        tables = [(privacy, ev.verdict_table(privacy))]
    return {MEASURES[m.name]: m.largest(ev, table) for m, table in tables if isinstance(m, DistributionModel)}


def _each(evs: list[SqlEvaluator], step: Callable[[SqlEvaluator], T]) -> list[T]:
    """``step`` on every part: on their own sessions at once (the first in this thread; a failure or
    Ctrl-C here cancels the others' statements), or one after another where the parts share a session."""
    if len(evs) == 1 or len({id(ev.db) for ev in evs}) < len(evs):
        return [step(ev) for ev in evs]
    with (
        contextlib.ExitStack() as sharing,
        ThreadPoolExecutor(max_workers=len(evs) - 1, thread_name_prefix="ldiv-part") as pool,
    ):
        for ev in evs:
            sharing.enter_context(ev.db.sharing_cores())
        others = [pool.submit(step, ev) for ev in evs[1:]]
        try:
            return [step(evs[0]), *(f.result() for f in others)]
        except BaseException:
            for ev in evs[1:]:
                ev.db.interrupt()
            raise


def merge_summaries(parts: Sequence[Sequence[PartitionSummary]]) -> list[PartitionSummary]:
    """Per SA, the statistics of the union of disjoint sets of groups."""
    by_s: dict[int, list[PartitionSummary]] = {}
    for part in parts:
        for x in part:
            by_s.setdefault(x.s, []).append(x)
    out = []
    for s, xs in sorted(by_s.items()):
        entropies = [x.min_entropy for x in xs if x.min_entropy is not None]
        freqs = [x.frequency_l for x in xs if x.frequency_l is not None]
        out.append(
            PartitionSummary(
                s=s,
                groups=sum(x.groups for x in xs),
                rows=sum(x.rows for x in xs),
                k=min(x.k for x in xs),
                distinct_l=min(x.distinct_l for x in xs),
                min_entropy=min(entropies) if entropies else None,
                frequency_l=min(freqs) if freqs else None,
            )
        )
    return out


def merge_profiles(
    parts: Sequence[Mapping[int, Sequence[RecursiveBound]]],
) -> dict[int, list[RecursiveBound]]:
    """Per SA and l, the largest c_above of any part: recursive (c,l) holds in every group above it."""
    best: dict[tuple[int, int], Fraction] = {}
    for part in parts:
        for s, bounds in part.items():
            for b in bounds:
                key = (s, b.l)
                best[key] = max(best.get(key, b.c_above), b.c_above)
    out: dict[int, list[RecursiveBound]] = {}
    for (s, l_value), c in sorted(best.items()):
        out.setdefault(s, []).append(RecursiveBound(l_value, c))
    return out
