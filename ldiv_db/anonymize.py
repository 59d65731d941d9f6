"""``ldiv anonymize``: the pipeline every algorithm plugs into.

1. resolve and validate the inputs (names, roles, NULLs, l against the largest feasible l);
2. record the run; let the algorithm partition the rows (``assignment`` work table);
3. in ONE transaction: write the output table, record ``ldiv.release`` and ``ldiv.release_row``,
   reconcile the counts with the source, re-verify the privacy model on the written table, store the
   metrics and the verdict. Any failure rolls everything back: no partial output, the previous release
   (with ``--replace``) stays intact, and a release that fails verification is never published.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import ownership
from .algorithms import Algorithm, AnonymizeRequest, Partitioning, get_algorithm
from .algorithms.base import lca_hierarchy_ids, lca_kinds
from .catalog import output_ref
from .check import CheckResult
from .db import Database
from .errors import BadInput, InternalError, PrivacyViolation
from .guarantees import Written, refuse_empty, verify_all
from .inputs import Inputs, as_list, refuse_nulls_in_hierarchies, resolve_inputs
from .options import parse_flag, parse_int, per_qi, validate
from .pipeline.verify import Checked, check_written
from .privacy import PrivacyModel
from .privacy.spec import ModelSpec, model_spec
from .progress import Progress
from .render import Ident, TableRef, render
from .runs import recorded_run
from .suggest import check_feasible


@dataclass
class AnonymizeResult:
    run_id: int
    release_id: int
    algorithm: str
    model: str
    model_params: dict[str, Any]
    l: Any
    rows_in: int
    rows_published: int
    rows_suppressed: int
    rows_deleted: int
    groups: int
    seconds: float
    queries: int
    output: str
    verified: bool
    metrics: dict[str, Any]
    details: dict[str, Any] = field(default_factory=dict)
    verification: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "release_id": self.release_id,
            "algorithm": self.algorithm,
            "model": self.model,
            "model_params": self.model_params,
            "l": self.l,
            "rows_in": self.rows_in,
            "rows_published": self.rows_published,
            "rows_suppressed": self.rows_suppressed,
            "rows_deleted": self.rows_deleted,
            "groups": self.groups,
            "seconds": round(self.seconds, 4),
            "queries": self.queries,
            "output": self.output,
            "verified": self.verified,
            "metrics": self.metrics,
            "details": self.details,
        }

    def render_text(self) -> str:
        m = self.metrics
        lines = [
            f"release      {self.output} (release {self.release_id}, run {self.run_id})",
            f"algorithm    {self.algorithm}, model {self.model} {self.model_params}",
            f"rows         {self.rows_in} in, {self.rows_published} published, {self.rows_deleted} deleted, "
            f"{self.rows_suppressed} with suppressed values",
            f"groups       {self.groups} (average size {_g(m.get('avg_group_size'))})",
            f"metrics      IL {_g(m.get('il'))}, LM {_g(m.get('lm'))}, DM {_g(m.get('dm'))}, "
            f"CAVG {_g(m.get('cavg'))}, KL {_g(m.get('kl'))}, stars {m.get('stars')}",
            f"verified     {'yes' if self.verified else 'NO'}",
            f"time         {self.seconds:.2f} s, {self.queries} queries",
        ]
        for k, v in self.details.items():
            if not k.startswith("_"):
                lines.append(f"  {k}: {v}")
        return "\n".join(lines)


def _g(x: Any) -> str:
    if x is None:
        return "n/a"
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _jsonable(x: Any) -> str:
    return json.dumps(x, default=str, sort_keys=True)


MAX_SEED = 2**63 - 1


def hierarchy_ids(db: Database, table_name: str) -> tuple[dict[str, int], dict[str, int]]:
    rows = db.rows(render("catalog/hierarchies_of.sql", {"table_name": table_name}))
    return {str(r[0]): int(r[1]) for r in rows}, {str(r[0]): int(r[2]) for r in rows}


def _group_column_name(inputs: Inputs, keep: Sequence[str]) -> str:
    taken = {c.name.lower() for c in (*inputs.qi, *inputs.sa)} | {k.lower() for k in keep}
    name = "group_id"
    while name in taken:
        name += "_"
    return name


def anonymize(
    db: Any,
    table: str,
    qi: str | Sequence[str],
    sa: str | Sequence[str],
    *,
    algorithm: str,
    output: str,
    l: int | Sequence[int] | str | None = None,
    model: str | ModelSpec | None = None,
    replace: bool = False,
    quiet: bool = True,
    keep_columns: Sequence[str] = (),
    class_column: str | None = None,
    null_as_value: bool = False,
    seed: int | None = None,
    keep_work: bool = False,
    model_options: Mapping[str, Any] | None = None,
    kl: bool = True,
    allow_empty: bool = False,
    **options: Any,
) -> AnonymizeResult:
    """Anonymize ``table`` with ``algorithm`` into the new table ``output`` (see the module docstring).
    ``options`` are the algorithm's declared options; ``model`` is a model name (its parameters in ``l``
    and ``model_options``) or a :class:`~ldiv_db.privacy.spec.ModelSpec`. Every value is validated
    before the database is opened: nothing is written for a refused call."""
    t0 = time.perf_counter()
    algo = get_algorithm(algorithm)
    opts = validate(algo.options, options, "api", f"{algo.name} options")
    spec = model_spec(model, l, model_options)
    seed = None if seed is None else parse_int(seed, "seed", low=0, high=MAX_SEED, text=True)
    replace, quiet, null_as_value, kl, allow_empty = (
        parse_flag(value, name, text=True)
        for name, value in (
            ("replace", replace),
            ("quiet", quiet),
            ("null_as_value", null_as_value),
            ("kl", kl),
            ("allow_empty", allow_empty),
        )
    )
    database = Database.open(db, mode="write")
    database.keep_work = keep_work
    q0 = database.queries
    try:
        database.require("anonymize", algo.name)
        return _anonymize(
            database,
            table,
            qi,
            sa,
            algo=algo,
            output=output,
            spec=spec,
            replace=replace,
            quiet=quiet,
            keep_columns=as_list(list(keep_columns)) + ([class_column] if class_column else []),
            class_column=class_column,
            null_as_value=null_as_value,
            seed=seed,
            options=opts,
            kl=kl,
            allow_empty=allow_empty,
            t0=t0,
            q0=q0,
        )
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close()


def _anonymize(
    db: Database,
    table: str,
    qi: str | Sequence[str],
    sa: str | Sequence[str],
    *,
    algo: Algorithm,
    output: str,
    spec: ModelSpec,
    replace: bool,
    quiet: bool,
    keep_columns: list[str],
    class_column: str | None,
    null_as_value: bool,
    seed: int | None,
    options: dict[str, Any],
    kl: bool,
    allow_empty: bool,
    t0: float,
    q0: int,
) -> AnonymizeResult:
    inputs = resolve_inputs(db, table, qi, sa, extra=keep_columns, null_as_value=null_as_value)
    if inputs.table.kind.upper() != "BASE TABLE":
        raise BadInput(
            f"{inputs.table.name} is a view; anonymize needs a base table (its rows need stable row ids)",
            f"materialize it first: CREATE TABLE t AS SELECT * FROM {inputs.table.name}",  # noqa: S608
        )
    _check_named(inputs, algo, options)
    spec = spec.with_name(spec.name or algo.default_model)
    if spec.l == "auto":  # the largest feasible l for the model
        from .suggest import suggest_l

        spec = spec.with_l(suggest_l(db, inputs).best_for(str(spec.name)))
    l = spec.l
    privacy = spec.build(inputs)
    assert privacy is not None
    spec.check_values(db, inputs)
    check_feasible(db, inputs, privacy)

    out = output_ref(output)
    src = inputs.table.ref
    if (
        src.catalog is None
        and (src.schema or "main").lower() == (out.schema or "main").lower()
        and (src.name.lower() == out.name.lower())
    ):
        raise BadInput(f"the output {output!r} is the source table", "choose another --output name")
    ownership.check_release_targets(db, out, algo.output_tables(out), replace=replace)

    hids, heights = hierarchy_ids(db, inputs.table.name)
    if null_as_value and algo.generalizes_by_hierarchy:
        refuse_nulls_in_hierarchies(db, inputs, hids)
    progress = Progress(f"{algo.name}", quiet=quiet)
    request = AnonymizeRequest(
        db=db,
        inputs=inputs,
        model=privacy,
        hierarchy_ids=hids,
        options=options,
        progress=progress,
        seed=seed,
        class_column=class_column,
        heights=heights,
    )
    algo.check(request)  # the options against the data, before the run is recorded
    params = {
        "table": inputs.table.name,
        "qi": [c.name for c in inputs.qi],
        "sa": [c.name for c in inputs.sa],
        "model": privacy.describe(),
        "options": options,
        "seed": seed,
    }
    with recorded_run(
        db,
        command="anonymize",
        algorithm=algo.name,
        source=inputs.table.name,
        output=out.display(),
        params=_jsonable(params),
        t0=t0,
        q0=q0,
    ) as run:
        run_id = run.run_id
        own_writer = getattr(algo, "release", None)
        if own_writer is not None:  # a release that is not one table (Decomposition+: three tables)
            result: AnonymizeResult = own_writer(
                request,
                out=out,
                run_id=run_id,
                replace=replace,
                keep_columns=keep_columns,
                null_as_value=null_as_value,
                allow_empty=allow_empty,
            )
        else:
            part = algo.run(request)
            t_publish = time.perf_counter()
            progress.update(1, 5, "partitioned; writing the release")
            result = publish(
                db,
                inputs,
                part,
                privacy,
                algo_name=algo.name,
                out=out,
                run_id=run_id,
                replace=replace,
                keep_columns=keep_columns,
                class_column=class_column,
                hids=hids,
                null_as_value=null_as_value,
                progress=progress,
                kl=kl,
                allow_empty=allow_empty,
            )
            if "seconds_search" in result.details:  # a search reports its time apart from the pipeline's
                result.details["seconds_pipeline"] = round(time.perf_counter() - t_publish, 4)
        progress.done()
        result.seconds = time.perf_counter() - t0
        result.queries = db.queries - q0
        result.l = l
        run.metrics = result.metrics
    return result


def _check_named(inputs: Inputs, algo: Algorithm, options: Mapping[str, Any]) -> None:
    """Options that name things must name real ones, checked before the run is recorded: a ``pairs``
    option names QIs (``--levels``, ``--weights``), a ``text`` option names a column of the table."""
    for opt in algo.options:
        value = options.get(opt.name)
        if value is None:
            continue
        if opt.kind == "pairs":
            per_qi(value, [c.name for c in inputs.qi], opt.flag)
        elif opt.kind == "text":
            for name in value if isinstance(value, tuple) else (str(value),):
                inputs.table.column(name)


def _labels(
    db: Database, inputs: Inputs, part: Partitioning, hids: Mapping[str, int]
) -> tuple[TableRef, str]:
    if part.recoding == "labels":
        if part.labels is None:
            raise InternalError("the algorithm chose 'labels' recoding without a labels table")
        return part.labels, "rid"
    target = db.work_table("release_labels")
    if part.recoding == "suppress":
        db.run(
            render(
                "release/labels_suppress.sql",
                target=target,
                assignment=part.assignment,
                source=inputs.table.ref,
                qi=[c.ident for c in inputs.qi],
            )
        )
        return target, "gid"
    if part.recoding == "lca":
        kinds = lca_kinds(inputs.qi, hids)
        db.run(
            render(
                "release/labels_lca.sql",
                {"hids": lca_hierarchy_ids(inputs.qi, hids)},
                target=target,
                assignment=part.assignment,
                source=inputs.table.ref,
                qi=[c.ident for c in inputs.qi],
                kinds=kinds,
            )
        )
        return target, "gid"
    raise InternalError(f"unknown recoding {part.recoding!r}")


def publish(
    db: Database,
    inputs: Inputs,
    part: Partitioning,
    privacy: PrivacyModel,
    *,
    algo_name: str,
    out: TableRef,
    run_id: int,
    replace: bool,
    keep_columns: Sequence[str],
    class_column: str | None,
    hids: Mapping[str, int],
    null_as_value: bool = False,
    progress: Progress | None = None,
    kl: bool = True,
    allow_empty: bool = False,
) -> AnonymizeResult:
    """Write, record, reconcile and verify one release in a single transaction: the model on the written
    table, the algorithm's declared guarantees (:mod:`ldiv_db.guarantees`); an empty release is refused
    before anything is written unless ``allow_empty``."""
    progress = progress or Progress("release", quiet=True)
    counts = db.records(render("release/published_count.sql", assignment=part.assignment))[0]
    refuse_empty(
        db, inputs, privacy, algo_name, int(counts["published"]), int(counts["assigned"]), allow_empty
    )
    labels, labels_by = _labels(db, inputs, part, hids)
    group_column = _group_column_name(inputs, keep_columns)
    keep = [inputs.table.column(k) for k in keep_columns]
    verify_model = part.verify_model or privacy
    labels_ctx: dict[str, Any] = {
        "assignment": part.assignment,
        "source": inputs.table.ref,
        "labels": labels,
        "labels_by": labels_by,
        "qi": [c.ident for c in inputs.qi],
        "sa": [c.ident for c in inputs.sa],
        "keep": [c.ident for c in keep],
        "group_column": Ident(group_column),
    }

    def write(target: TableRef) -> None:
        db.run(render("release/write.sql", output=target, **labels_ctx))

    def check(target: TableRef) -> Checked:
        return check_written(
            db,
            inputs,
            part,
            target,
            group_column,
            verify_model,
            privacy,
            class_column=class_column,
            hids=hids,
            null_as_value=null_as_value,
            kl=kl,
            progress=progress,
        )

    def judge(checked: Checked, release_id: int, target: TableRef) -> None:
        _judge(db, inputs, part, verify_model, group_column, checked, release_id, target)

    def record(checked: Checked, rows: bool = True) -> int:
        progress.update(4, 5, "recording")
        params = _release_params(
            inputs, part, verify_model, algo_name, run_id, out, checked, _suppressed(part, checked)
        )
        return _record(db, part, out, params, rows)

    if db.transactional:
        with db.transaction():
            ownership.drop_for_release(db, out, [out], replace=replace)
            write(out)
            checked = check(out)
            release_id = record(checked)
            judge(checked, release_id, out)
    else:
        from .pipeline.staged_release import publish_without_transactions

        ownership.check_may_replace(db, out, [out], replace=replace)
        checked, release_id = publish_without_transactions(
            db, out, run_id, part.assignment, write=write, check=check, judge=judge, record=record
        )
    rec, metrics, verification, verified = (
        checked.reconciliation,
        checked.metrics,
        checked.verification,
        checked.verified,
    )
    groups = checked.by_group.groups if checked.by_group else 0
    rows_suppressed = _suppressed(part, checked)
    return AnonymizeResult(
        run_id=run_id,
        release_id=release_id,
        algorithm=algo_name,
        model=verify_model.name,
        model_params=verify_model.params(),
        l=None,
        rows_in=int(rec["rows_in"]),
        rows_published=int(rec["published"]),
        rows_suppressed=rows_suppressed,
        rows_deleted=int(rec["deleted"]),
        groups=groups,
        seconds=0.0,
        queries=0,
        output=out.display(),
        verified=verified,
        metrics=metrics,
        details=part.details,
        verification=verification,
    )


def _record(db: Database, part: Partitioning, out: TableRef, params: dict[str, Any], rows: bool) -> int:
    """The release's records: ``ldiv.release`` (its id), the private row links (unless written
    already), the ownership of ``out`` and the superseding of the name's earlier releases."""
    release_id = int(db.scalar(render("meta/release_insert.sql", params)))
    if rows:
        db.run(render("release/release_rows.sql", {"release_id": release_id}, assignment=part.assignment))
    ownership.record_release_tables(db, out, release_id, [out])
    db.run(render("meta/release_supersede.sql", {"name": out.display(), "release_id": release_id}))
    return release_id


def _judge(
    db: Database,
    inputs: Inputs,
    part: Partitioning,
    verify_model: PrivacyModel,
    group_column: str,
    checked: Checked,
    release_id: int,
    target: TableRef,
) -> None:
    """Refuse a written release that fails its model or breaks the algorithm's declared guarantees."""
    written = Written(
        db,
        release_id,
        inputs.table.ref,
        target,
        Ident(group_column),
        int(checked.reconciliation["rows_in"]),
        int(checked.reconciliation["output_rows"]),
    )
    broken = verify_all(part.guarantees, written, checked.verification, checked.verified)
    if not checked.verified:
        raise PrivacyViolation(
            f"the written release violates {verify_model.describe()} "
            f"({_brief_violation(checked.by_group, checked.by_labels)}); nothing was published",
            "this is a bug in the algorithm; please report it with the run id",
        )
    if broken:
        raise PrivacyViolation(
            "the written release breaks what the run promised: "
            + "; ".join(f"{o.guarantee}: {o.found}" for o in broken)
            + "; nothing was published",
            "this is a bug in the algorithm; please report it with the run id",
        )


def _suppressed(part: Partitioning, checked: Checked) -> int:
    """Deleted rows + rows whose SA became unknown + (suppression recoding, TP Definition 1) rows that
    carry a star; a hierarchy root label under generalization is not counted here."""
    metrics = checked.metrics
    starred = int(metrics.get("starred_rows") or 0) if part.recoding == "suppress" else 0
    rec = checked.reconciliation
    return int(rec["deleted"]) + int(rec["sa_suppressed"]) + starred


def _release_params(
    inputs: Inputs,
    part: Partitioning,
    verify_model: PrivacyModel,
    algo_name: str,
    run_id: int,
    out: TableRef,
    checked: Checked,
    rows_suppressed: int,
) -> dict[str, Any]:
    rec = checked.reconciliation
    return {
        "run_id": run_id,
        "name": out.display(),
        "source": inputs.table.name,
        "algorithm": algo_name,
        "model": verify_model.name,
        "l": _jsonable(list(verify_model.ls)) if verify_model.ls else None,
        "qi": _jsonable([c.name for c in inputs.qi]),
        "sa": _jsonable([c.name for c in inputs.sa]),
        "rows_in": int(rec["rows_in"]),
        "rows_published": int(rec["published"]),
        "rows_suppressed": rows_suppressed,
        "groups": checked.by_group.groups if checked.by_group else 0,
        "metrics": _jsonable(checked.metrics),
        "details": _jsonable(part.details),
        "verified": checked.verified,
        "verification": _jsonable(checked.verification),
    }


def _brief_violation(a: CheckResult | None, b: CheckResult | None) -> str:
    parts = []
    if a is not None and not a.satisfied:
        parts.append(f"{a.violating_groups} groups by group id")
    if b is not None and not b.satisfied:
        parts.append(f"{b.violating_groups} groups by QI labels")
    return ", ".join(parts) or "unknown"
