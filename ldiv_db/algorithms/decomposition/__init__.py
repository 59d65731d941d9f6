"""Decomposition+ (Das & Bhattacharyya 2012, after Ye et al.'s Decomposition, DASFAA 2009; SPEC §4):
several sensitive attributes, the first one primary. SA-groups are formed on the primary SA by
largest-l group forming with the diversity penalty (:mod:`.forming`); the other SAs are made l_i-diverse
with noise from the linkable sensitive values (:mod:`.noise`); the release is three tables, and the rows
that fit no group are kept back for a later release (:mod:`.release`, ``ldiv release append``).

The release is not one table, so :meth:`Decomposition.run` returns a
:class:`~ldiv_db.algorithms.base.Release` of three tables instead of a partitioning; the one release
pipeline publishes it like every other release (one transaction, reconciliation, verification on the
written tables, roll back on failure), and publishes a stream's next releases the same way
(:meth:`Decomposition.append`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.options import Option
from ...errors import BadInput
from ...privacy import Distinct
from ..base import Algorithm, AnonymizeRequest, StreamState, group_column_name, retained_ref
from . import keys
from .checks import check_batch_types
from .config import DEFAULT_THRESHOLD, NOISE_MODES, StreamConfig, outputs
from .keys import key_names, parse_key
from .release import StreamRelease, build_release

if TYPE_CHECKING:
    from ...core.catalog import Table
    from ...db import Database
    from ...sqlgen.render import TableRef
    from ...util.progress import Progress


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

    streams = True

    def output_tables(self, out: TableRef) -> tuple[TableRef, ...]:
        return outputs(out)

    def private_tables(self, db: Database, out: TableRef) -> tuple[TableRef, ...]:
        """The stream's kept-back rows and row keys."""
        return (retained_ref(db, out.display()), keys.keys_ref(db, out.display()))

    def run(self, request: AnonymizeRequest) -> StreamRelease:
        """The first release of a stream named ``request.output``."""
        db, inputs, model = request.db, request.inputs, request.model
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
        assert request.output is not None
        name = request.output.display()
        if not request.replace and request.stream is not None:  # its tables were checked by ownership
            raise BadInput(
                f"the release stream {name} already exists",
                "pass --replace to start it again, or `ldiv release append` to publish its next release",
            )
        keep = [inputs.table.column(k).name for k in request.keep_columns]
        key = parse_key(request.options.get("key"), inputs.table)
        config = StreamConfig(
            qi=tuple(c.name for c in inputs.qi),
            sa=tuple(c.name for c in inputs.sa),
            keep=tuple(dict.fromkeys(keep)),
            ls=tuple(int(x) for x in model.ls),
            noise=str(request.options["noise"]),
            seed=request.seed,
            threshold=int(request.options["starvation_threshold"]),
            null_as_value=request.null_as_value,
            group_column=group_column_name(inputs, keep),
            key=key,
            fingerprint=() if key else tuple(c.name for c in inputs.table.columns),
        )
        return build_release(
            db,
            out=request.output,
            new_rows=inputs.table,
            config=config,
            stream=None,
            hierarchy_source=inputs.table.name,
            progress=request.progress,
            seed=request.order_seed,
        )

    def check_append(self, db: Database, stream: StreamState, batch: Table, key: Any) -> None:
        """The batch is keyed like the stream (``key``, when given, is the stream's), its columns have
        the stream's types, and the stream's private key table is in place."""
        config = StreamConfig.from_json(stream.config)
        keys.check_append_key(config, stream.name, key, batch)
        check_batch_types(db, stream, config, batch)
        if not db.exists(keys.keys_ref(db, stream.name)):
            raise BadInput(
                f"the private row-key table of stream {stream.name} is missing, so ldiv_db cannot tell whether "
                f"{batch.name} repeats rows the stream already received",
                f"start the stream again with --replace (ldiv anonymize ... --output {stream.name} --replace)",
            )

    def append(
        self, db: Database, stream: StreamState, batch: Table, *, out: TableRef, progress: Progress, seed: int
    ) -> StreamRelease:
        return build_release(
            db,
            out=out,
            new_rows=batch,
            config=StreamConfig.from_json(stream.config),
            stream=stream,
            hierarchy_source=stream.source,
            progress=progress,
            seed=seed,
        )
