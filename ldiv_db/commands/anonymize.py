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
from dataclasses import dataclass, field
from typing import Any

from ..algorithms import Algorithm, AnonymizeRequest, Partitioning, get_algorithm
from ..algorithms.base import Release
from ..core import ownership
from ..core.catalog import output_ref, require_row_ids
from ..core.inputs import (
    Inputs,
    as_list,
    folded_columns,
    refuse_nulls_in_hierarchies,
    refuse_unpublishable_columns,
    resolve_inputs,
)
from ..core.options import per_qi, validate
from ..core.run_flags import AnonymizeFlags, api_keys, parse_flags
from ..db import Database
from ..errors import BadInput, InternalError
from ..pipeline import opaque
from ..pipeline import stream as streams
from ..pipeline.one_table import OneTable
from ..pipeline.publication import draft_composition
from ..pipeline.publish import Context, publish, recover_tables
from ..pipeline.result import AnonymizeResult as AnonymizeResult  # the API's result type, re-exported
from ..pipeline.verify import Publishing
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


def hierarchy_ids(db: Database, table_name: str) -> tuple[dict[str, int], dict[str, int]]:
    rows = db.rows(render("catalog/hierarchies_of.sql", {"table_name": table_name}))
    return {str(r[0]): int(r[1]) for r in rows}, {str(r[0]): int(r[2]) for r in rows}


@dataclass(frozen=True)
class AnonymizeCall:
    """One anonymize run as its edge validated it (the command line, a job file, the API): the names
    (resolved against the database later), the algorithm, its options and the model, validated, and the
    run flags. The layers below take it as it is and validate nothing again."""

    table: str
    qi: str | Sequence[str]
    sa: str | Sequence[str]
    output: str
    algorithm: str
    model: ModelSpec
    options: Mapping[str, Any] = field(default_factory=dict)
    flags: AnonymizeFlags = field(default_factory=AnonymizeFlags)

    @classmethod
    def from_api(
        cls, table: str, qi: str | Sequence[str], sa: str | Sequence[str], output: str, kw: Mapping[str, Any]
    ) -> AnonymizeCall:
        """The keywords of :func:`ldiv_db.anonymize` (``algorithm``, the model's ``model``, ``l`` and
        ``model_options``, the run flags, and the algorithm's options) validated against their
        declarations; an unknown keyword is an unknown option of the algorithm."""
        rest = dict(kw)
        algo = get_algorithm(rest.pop("algorithm"))
        given = {k: rest.pop(k) for k in api_keys(AnonymizeFlags) if k in rest}
        model = (rest.pop("model", None), rest.pop("l", None), rest.pop("model_options", None))
        opts = validate(algo.options, rest, "api", f"{algo.name} options")
        spec = model_spec(*model)
        flags = parse_flags(AnonymizeFlags, given, "api")
        return cls(table, qi, sa, output, algo.name, spec, opts, flags)


def anonymize(db: Any, call: AnonymizeCall) -> AnonymizeResult:
    """Run ``call`` (the module docstring): anonymize its table with its algorithm into the new table
    its output names. ``flags.no_group_column``: the QI label vectors are the classes and must hold the
    model (else refused)."""
    t0 = time.perf_counter()
    algo = get_algorithm(call.algorithm)
    with Database.writing(db) as database:
        database.keep_work = call.flags.keep_work
        q0 = database.queries
        database.require("anonymize", algo.name)
        result = _anonymize(database, call, algo, (t0, q0))
        result.composition = draft_composition(database, result.release_id)
        return result


def _anonymize(
    db: Database, call: AnonymizeCall, algo: Algorithm, started: tuple[float, int]
) -> AnonymizeResult:
    flags, (t0, q0) = call.flags, started
    keep_columns = as_list(list(flags.keep_columns)) + ([flags.class_column] if flags.class_column else [])
    inputs = resolve_inputs(
        db, call.table, call.qi, call.sa, extra=keep_columns, null_as_value=flags.null_as_value
    )
    spec, privacy = _model(db, inputs, algo, call.model, call.options)
    out = _output(db, inputs, algo, call.output, flags.replace, flags.no_group_column)
    hids, heights = hierarchy_ids(db, inputs.table.name)
    if flags.null_as_value and algo.generalizes_by_hierarchy:
        refuse_nulls_in_hierarchies(db, inputs, hids)
    progress = Progress(f"{algo.name}", quiet=flags.quiet)
    order_seed = opaque.run_seed(flags.seed)  # private: recorded with the run (ldiv.run), never published
    request = AnonymizeRequest(
        db=db,
        inputs=inputs,
        model=privacy,
        hierarchy_ids=hids,
        options=call.options,
        progress=progress,
        seed=flags.seed,
        order_seed=order_seed,
        class_column=flags.class_column,
        heights=heights,
        output=out,
        replace=flags.replace,
        keep_columns=keep_columns,
        null_as_value=flags.null_as_value,
        stream=streams.load(db, out.display()) if algo.streams else None,
    )
    algo.check(request)  # the options against the data, before the run is recorded
    params = {
        "table": inputs.table.name,
        "qi": [c.name for c in inputs.qi],
        "sa": [c.name for c in inputs.sa],
        "model": privacy.describe(),
        "options": call.options,
        "seed": order_seed,
        "seed_given": flags.seed is not None,
        **({"no_group_column": True} if flags.no_group_column else {}),
        # read back by metrics, report and compare: they measure the release with the same NULL policy
        **({"null_as_value": True} if flags.null_as_value else {}),
    }
    how = Publishing(out, keep_columns, hids, flags, progress)
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
        ctx = Context(run.run_id, flags.replace, progress, order_seed, end_run=run.end)
        result = _release(request, algo, ctx, how)
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


def _release(request: AnonymizeRequest, algo: Algorithm, ctx: Context, how: Publishing) -> AnonymizeResult:
    """Let the algorithm build what to publish, then publish it through the one release pipeline."""
    db, inputs, privacy = request.db, request.inputs, request.model

    def empty(published: int, received: int) -> None:
        refuse_empty(db, inputs, privacy, algo.name, published, received, how.flags.allow_empty)

    with db.threads_for(inputs.rows):  # one DuckDB thread for a small source
        side = None
        if len(algo.output_tables(how.out)) == 1:  # the metrics' source side, read while the algorithm runs
            side = start_source_side(
                db, inputs.table, inputs.qi, inputs.sa, points=how.flags.kl, rows=inputs.rows
            )
        try:
            built, folded = _run(request, algo, how.out)
            t_publish = time.perf_counter()
            if isinstance(built, Partitioning):
                refuse_weakened(db, inputs, privacy, built.verify_model, algo.name, built.shortfall)
                request.progress.update(1, 5, "partitioned; writing the release")
                how = dataclasses.replace(how, source_side=side, folded=folded)
                built = OneTable(db, inputs, built, privacy, algo.name, how)
            result = publish(db, built, dataclasses.replace(ctx, refuse_empty=empty))
        finally:
            if side is not None:
                side.cancel()
    if "seconds_search" in result.details:  # a search reports its time apart from the pipeline's
        result.details["seconds_pipeline"] = round(time.perf_counter() - t_publish, 4)
    return result


def _run(
    request: AnonymizeRequest, algo: Algorithm, out: TableRef
) -> tuple[Partitioning | Release, bool | None]:
    """The algorithm's result, and whether a QI, SA or kept column folds spellings where that was counted
    (None: not counted; the suppression write counts it then). A one-table algorithm reads the source
    through its seeded copy (:func:`ldiv_db.pipeline.opaque.seeded_inputs`: every tie among rows falls
    by the run's seeded key), and its partitioning is mapped back to the source's row ids; one that
    declares itself
    :attr:`~ldiv_db.algorithms.base.Algorithm.order_free` has no tie to break and reads the source as it
    is; one with :attr:`~ldiv_db.algorithms.base.Algorithm.keyed_ties` breaks them by the seeded key
    itself (TP, TP+) where the engine's copy keys row ids as it does (``Database.keys_row_ids``) and no
    QI or SA holds two spellings of one value (:func:`~ldiv_db.core.inputs.folds_spellings`). A
    release of several tables links its rows itself, so it reads the source as it is
    and orders its rows by the same key itself (Decomposition+: ``sql/decomposition/pool_rows.sql``)."""
    if algo.streams or len(algo.output_tables(out)) != 1:
        return algo.run(request), None
    seeded = None
    folded: bool | None = None
    keyed = algo.keyed_ties and request.db.keys_row_ids
    if keyed:  # counted once, with the kept columns the suppression write asks about too
        inputs = request.inputs
        read = [*inputs.qi, *inputs.sa]
        kept = [inputs.table.column(k) for k in request.keep_columns]
        folds = folded_columns(request.db, inputs.table, [*read, *kept])
        keyed, folded = not any(folds[: len(read)]), any(folds)
    if not (algo.order_free or keyed):
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
    built = algo.run(request if seeded is None else dataclasses.replace(request, inputs=seeded))
    if algo.holds_memory and request.inputs.rows > LARGE_ROWS:  # its arrays, freed, before the write;
        with request.db.holding_little():  # DuckDB's cached blocks too: they go when its bound falls
            release_freed(collect=algo.leaves_cycles)
    if not isinstance(built, Partitioning):
        raise InternalError(f"{algo.name} writes one table but returned no partitioning")
    return (built if seeded is None else opaque.to_source(request.db, built, seeded)), folded


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
