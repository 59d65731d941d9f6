"""``ldiv anonymize`` (the API entry ``ldiv_db.anonymize``):

1. resolve and validate the inputs (names, roles, NULLs, l against the largest feasible l, the release
   name and the tables it writes) before anything is recorded;
2. record the run (:mod:`ldiv_db.schema.runs`); let the algorithm build what to publish: a
   partitioning (one table, :mod:`ldiv_db.pipeline.one_table`) or a release of several tables;
3. publish it through the one release pipeline (:mod:`ldiv_db.pipeline.publish`): in ONE transaction
   write, reconcile, verify on the written tables, record. Any failure rolls everything back: no
   partial output, the previous release (with ``--replace``) stays intact, and a release that fails
   verification is never published.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..algorithms import Algorithm, AnonymizeRequest, Partitioning, get_algorithm
from ..algorithms.base import Release
from ..core import ownership
from ..core.catalog import output_ref, require_row_ids
from ..core.inputs import (
    Inputs,
    as_list,
    refuse_nulls_in_hierarchies,
    refuse_unpublishable_columns,
    resolve_inputs,
)
from ..core.options import parse_flag, parse_int, per_qi, validate
from ..db import Database
from ..errors import BadInput, InternalError
from ..pipeline import opaque
from ..pipeline import stream as streams
from ..pipeline.one_table import OneTable, Publishing
from ..pipeline.publication import draft_composition
from ..pipeline.publish import Context, publish, recover_tables
from ..pipeline.result import AnonymizeResult as AnonymizeResult  # the API's result type, re-exported
from ..privacy import PrivacyModel
from ..privacy.spec import ModelSpec, model_spec
from ..schema.runs import recorded_run
from ..sqlgen.render import TableRef, render
from ..util.memory import LARGE_ROWS, release_freed
from ..util.progress import Progress
from ..utility.source_side import start_source_side
from ..verify.guarantees import refuse_empty, refuse_weakened
from ..verify.suggest import check_feasible, suggest_l


def _jsonable(x: Any) -> str:
    return json.dumps(x, default=str, sort_keys=True)


MAX_SEED = opaque.MAX_SEED


def hierarchy_ids(db: Database, table_name: str) -> tuple[dict[str, int], dict[str, int]]:
    rows = db.rows(render("catalog/hierarchies_of.sql", {"table_name": table_name}))
    return {str(r[0]): int(r[1]) for r in rows}, {str(r[0]): int(r[2]) for r in rows}


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
    no_group_column: bool = False,
    **options: Any,
) -> AnonymizeResult:
    """Anonymize ``table`` with ``algorithm`` into the new table ``output`` (the module docstring).
    ``options``: the algorithm's declared options; ``model``: a model name (parameters in ``l`` and
    ``model_options``) or a ModelSpec. Every value is validated before the database is opened.
    ``no_group_column``: the QI label vectors are the classes and must hold the model (else refused)."""
    t0 = time.perf_counter()
    algo = get_algorithm(algorithm)
    opts = validate(algo.options, options, "api", f"{algo.name} options")
    spec = model_spec(model, l, model_options)
    seed = None if seed is None else parse_int(seed, "seed", low=0, high=MAX_SEED, text=True)
    replace, quiet, null_as_value, kl, allow_empty, no_group_column = (
        parse_flag(value, name, text=True)
        for name, value in (
            ("replace", replace),
            ("quiet", quiet),
            ("null_as_value", null_as_value),
            ("kl", kl),
            ("allow_empty", allow_empty),
            ("no_group_column", no_group_column),
        )
    )
    _check_class_column(class_column)
    database = Database.open(db, mode="write")
    database.keep_work = keep_work
    q0 = database.queries
    failed = False  # a failed command leaves no database file it created
    try:
        database.require("anonymize", algo.name)
        result = _anonymize(
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
            no_group_column=no_group_column,
            t0=t0,
            q0=q0,
        )
        result.composition = draft_composition(database, result.release_id)
        return result
    except BaseException:
        failed = True
        raise
    finally:
        database.drop_work_tables()
        if database is not db:
            database.close(failed=failed)


def _check_class_column(class_column: Any) -> None:
    if class_column is not None and (not isinstance(class_column, str) or not class_column):
        raise BadInput(
            f"the class column {class_column!r} is not a column name",
            "name the source column that holds the class (for CM), or leave the option out",
        )


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
    no_group_column: bool,
    t0: float,
    q0: int,
) -> AnonymizeResult:
    inputs = resolve_inputs(db, table, qi, sa, extra=keep_columns, null_as_value=null_as_value)
    spec, privacy = _model(db, inputs, algo, spec, options)
    out = _output(db, inputs, algo, output, replace, no_group_column)
    hids, heights = hierarchy_ids(db, inputs.table.name)
    if null_as_value and algo.generalizes_by_hierarchy:
        refuse_nulls_in_hierarchies(db, inputs, hids)
    progress = Progress(f"{algo.name}", quiet=quiet)
    order_seed = opaque.run_seed(seed)  # private: recorded with the run (ldiv.run), never published
    request = AnonymizeRequest(
        db=db,
        inputs=inputs,
        model=privacy,
        hierarchy_ids=hids,
        options=options,
        progress=progress,
        seed=seed,
        order_seed=order_seed,
        class_column=class_column,
        heights=heights,
        output=out,
        replace=replace,
        keep_columns=keep_columns,
        null_as_value=null_as_value,
        stream=streams.load(db, out.display()) if algo.streams else None,
    )
    algo.check(request)  # the options against the data, before the run is recorded
    params = {
        "table": inputs.table.name,
        "qi": [c.name for c in inputs.qi],
        "sa": [c.name for c in inputs.sa],
        "model": privacy.describe(),
        "options": options,
        "seed": order_seed,
        "seed_given": seed is not None,
        **({"no_group_column": True} if no_group_column else {}),
    }
    how = Publishing(
        out, keep_columns, class_column, hids, null_as_value, kl, progress, group_column=not no_group_column
    )
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
        ctx = Context(run.run_id, replace, progress, order_seed)
        result = _release(request, algo, ctx, how, allow_empty)
        progress.done()
        result.seconds = time.perf_counter() - t0
        result.queries = db.queries - q0
        result.l = spec.l
        run.metrics = result.metrics
    return result


def _model(
    db: Database, inputs: Inputs, algo: Algorithm, spec: ModelSpec, options: Mapping[str, Any]
) -> tuple[ModelSpec, PrivacyModel]:
    """The source must be a base table, named options must name real things, the model must be
    feasible on the data; ``--l auto`` becomes the largest feasible l."""
    require_row_ids(db, inputs.table, "anonymize")
    refuse_unpublishable_columns(db, inputs)
    _check_named(inputs, algo, options)
    spec = spec.with_name(spec.name or algo.default_model)
    if spec.l == "auto":  # the largest feasible l for the model
        spec = spec.with_l(suggest_l(db, inputs).auto_l(str(spec.name)))
    privacy = spec.build(inputs)
    assert privacy is not None
    spec.check_values(db, inputs)
    check_feasible(db, inputs, privacy)
    return spec, privacy


def _output(
    db: Database, inputs: Inputs, algo: Algorithm, output: str, replace: bool, no_group_column: bool = False
) -> TableRef:
    """The release name: not the source, and every table it writes one ldiv_db may write; without a group
    column only for a release of one table (a stream's or Decomposition+'s groups are a table of their own)."""
    out = output_ref(output)
    if no_group_column and (algo.streams or len(algo.output_tables(out)) != 1):
        raise BadInput(
            f"{algo.name} publishes its groups as a table of their own, so it has no release without a "
            "group column",
            "leave out --no-group-column for this algorithm",
        )
    src = inputs.table.ref
    if (
        src.catalog is None
        and (src.schema or "main").lower() == (out.schema or "main").lower()
        and (src.name.lower() == out.name.lower())
    ):
        raise BadInput(f"the output {output!r} is the source table", "choose another --output name")
    recover_tables(db, (*algo.output_tables(out), *algo.private_tables(db, out)))
    ownership.check_release_targets(db, out, algo.output_tables(out), replace=replace)
    return out


def _release(
    request: AnonymizeRequest, algo: Algorithm, ctx: Context, how: Publishing, allow_empty: bool
) -> AnonymizeResult:
    """Let the algorithm build what to publish, then publish it through the one release pipeline."""
    db, inputs, privacy = request.db, request.inputs, request.model

    def empty(published: int, received: int) -> None:
        refuse_empty(db, inputs, privacy, algo.name, published, received, allow_empty)

    with db.threads_for(inputs.rows):  # one DuckDB thread for a small source
        side = None
        if len(algo.output_tables(how.out)) == 1:  # the metrics' source side, read while the algorithm runs
            side = start_source_side(db, inputs.table, inputs.qi, inputs.sa, points=how.kl, rows=inputs.rows)
        try:
            built = _run(request, algo, how.out)
            t_publish = time.perf_counter()
            if isinstance(built, Partitioning):
                refuse_weakened(db, inputs, privacy, built.verify_model, algo.name, built.shortfall)
                request.progress.update(1, 5, "partitioned; writing the release")
                how = dataclasses.replace(how, source_side=side)
                built = OneTable(db, inputs, built, privacy, algo.name, how)
            result = publish(db, built, dataclasses.replace(ctx, refuse_empty=empty))
        finally:
            if side is not None:
                side.cancel()
    if "seconds_search" in result.details:  # a search reports its time apart from the pipeline's
        result.details["seconds_pipeline"] = round(time.perf_counter() - t_publish, 4)
    return result


def _run(request: AnonymizeRequest, algo: Algorithm, out: TableRef) -> Partitioning | Release:
    """The algorithm's result. A one-table algorithm reads the source through its seeded copy
    (:func:`ldiv_db.pipeline.opaque.seeded_inputs`: every tie among rows falls by the run's seeded key),
    and its partitioning is mapped back to the source's row ids. A release of several tables links its
    rows itself, so it reads the source as it is and orders its rows by the same key itself
    (Decomposition+: ``sql/decomposition/pool_rows.sql``)."""
    if algo.streams or len(algo.output_tables(out)) != 1:
        return algo.run(request)
    named = [  # the columns the algorithm may read besides the QIs and SAs
        *request.keep_columns,
        *(
            name
            for opt in algo.options
            if opt.kind == "text" and request.options.get(opt.name) is not None
            for name in _names(request.options[opt.name])
        ),
    ]
    seeded = opaque.seeded_inputs(request.db, request.inputs, request.order_seed, named)
    built = algo.run(dataclasses.replace(request, inputs=seeded))
    if request.inputs.rows > LARGE_ROWS:  # the algorithm's arrays, freed, before the release is written
        release_freed()
    if not isinstance(built, Partitioning):
        raise InternalError(f"{algo.name} writes one table but returned no partitioning")
    return opaque.to_source(request.db, built, seeded)


def _names(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, tuple) else (str(value),)


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
            for name in _names(value):
                inputs.table.column(name)
