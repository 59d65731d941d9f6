"""Decomposition+ (Das & Bhattacharyya 2012, after Ye et al.'s Decomposition, DASFAA 2009; SPEC §4):
several sensitive attributes, the first one primary. SA-groups are formed on the primary SA by
largest-l group forming with the diversity penalty (:mod:`.decomposition_forming`); the other SAs are
made l_i-diverse with noise from the linkable sensitive values (:mod:`.decomposition_noise`); the
release is three tables, and the rows that fit no group are kept back for a later release
(:mod:`.decomposition_release`, ``ldiv release append``).

The release shape (three tables, kept-back rows) does not fit the one-table pipeline, so this algorithm
brings its own writer with the same guarantees (one transaction, exact reconciliation, re-verification
on the written tables, roll back on failure); ``ldiv_db.anonymize`` calls :meth:`Decomposition.release`
instead of ``run`` + ``publish``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import BadInput, InternalError
from ...options import Option
from ...privacy import Distinct
from ..base import Algorithm, AnonymizeRequest, Partitioning
from .keys import key_names, parse_key
from .release import (
    DEFAULT_THRESHOLD,
    NOISE_MODES,
    StreamConfig,
    load_stream,
    outputs,
    publish_release,
)

if TYPE_CHECKING:
    from ...anonymize import AnonymizeResult
    from ...render import TableRef


class Decomposition(Algorithm):
    name = "decomposition"
    default_model = "distinct"
    summary = (
        "Decomposition+: SA-groups on the first (primary) SA, noise for the others; three tables "
        "OUT_qid/OUT_sa/OUT_marginals; kept-back rows for `ldiv release append`"
    )
    options = (
        Option(
            "noise",
            "choice",
            "decomposition: noise value nearest in the SA's hierarchy, or random (--seed)",
            default="distance",
            choices=NOISE_MODES,
        ),
        Option(
            "key",
            "text",
            "decomposition: column(s) that identify a row (id or a,b); a stream refuses a batch that repeats a "
            "key it received (default: a fingerprint of all the columns of the first table)",
            parser=key_names,
            label="column names a,b",
        ),
        Option(
            "starvation_threshold",
            "int",
            "decomposition: a kept-back row joins a new group of the release once its starvation penalty "
            "(releases waited) exceeds this, never a published group; -1 places every residual row at once",
            default=DEFAULT_THRESHOLD,
            low=-1,
            high=10**6,
        ),
    )

    def output_tables(self, out: TableRef) -> tuple[TableRef, ...]:
        return outputs(out)

    def run(self, request: AnonymizeRequest) -> Partitioning:
        raise InternalError("decomposition writes its own three-table release (Decomposition.release)")

    def release(
        self,
        request: AnonymizeRequest,
        *,
        out: TableRef,
        run_id: int,
        replace: bool,
        keep_columns: Sequence[str],
        null_as_value: bool = False,
        allow_empty: bool = False,
    ) -> AnonymizeResult:
        from ...anonymize import _group_column_name
        from ...guarantees import refuse_empty

        db, inputs = request.db, request.inputs
        model = request.model
        if not isinstance(model, Distinct) or not model.ls:
            raise BadInput(
                f"decomposition publishes (l_1,...,l_k)-diversity in its distinct form, not {model.name}",
                "drop --model (or pass --model distinct) and give one l per SA: --l 5,3,2",
            )
        too_big = [
            (c.name, l_i) for c, l_i in zip(inputs.sa[1:], model.ls[1:], strict=True) if l_i > model.ls[0]
        ]
        if too_big:
            raise BadInput(
                f"l = {too_big[0][1]} for {too_big[0][0]!r} is larger than l = {model.ls[0]} of the primary SA "
                f"{inputs.sa[0].name!r}: an SA-group has l_pri rows and noise keeps its size",
                "give every other SA an l at most the primary one's (the primary SA comes first in --sa)",
            )
        name = out.display()
        stream = load_stream(db, name)
        if not replace and stream is not None:  # its tables were checked by ldiv_db/ownership.py
            raise BadInput(
                f"the release stream {name} already exists",
                "pass --replace to start it again, or `ldiv release append` to publish its next release",
            )
        keep = [inputs.table.column(k).name for k in keep_columns]
        key = parse_key(request.options.get("key"), inputs.table)
        config = StreamConfig(
            qi=tuple(c.name for c in inputs.qi),
            sa=tuple(c.name for c in inputs.sa),
            keep=tuple(dict.fromkeys(keep)),
            ls=tuple(int(x) for x in model.ls),
            noise=str(request.options["noise"]),
            seed=request.seed,
            threshold=int(request.options["starvation_threshold"]),
            null_as_value=null_as_value,
            group_column=_group_column_name(inputs, keep),
            key=key,
            fingerprint=() if key else tuple(c.name for c in inputs.table.columns),
        )
        return publish_release(
            db,
            out=out,
            new_rows=inputs.table,
            config=config,
            stream=None,
            hierarchy_source=inputs.table.name,
            run_id=run_id,
            replace=replace,
            progress=request.progress,
            empty_check=lambda published, rows: refuse_empty(
                db, inputs, model, self.name, published, rows, allow_empty
            ),
        )
