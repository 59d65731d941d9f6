"""``ldiv release append``: the next release of a stream, built by the stream's algorithm from a batch of
new rows plus the rows kept back so far, and published by the one release pipeline."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from ..algorithms import REGISTRY, Algorithm, get_algorithm
from ..core import ownership
from ..core.catalog import output_ref, require_row_ids, resolve_table
from ..errors import BadInput, InternalError
from ..schema.runs import recorded_run
from ..util.progress import Progress
from . import opaque
from . import stream as streams
from .publish import Context, publish, recover_tables

if TYPE_CHECKING:
    from ..db import Database
    from .result import AnonymizeResult


def _algorithm() -> Algorithm:
    """The algorithm that publishes release streams. Decomposition+ is the only one, so a stream's state
    does not name it; a second one would have to record its name with the stream."""
    names = [name for name, cls in REGISTRY.items() if cls.streams]
    if len(names) != 1:
        raise InternalError(f"release streams need one algorithm that publishes them, not {names}")
    return get_algorithm(names[0])


def append(
    db: Database, release: str, source: str, *, quiet: bool = True, key: Any = None
) -> AnonymizeResult:
    """``ldiv release append``: publish the next release of stream ``release`` from the rows of table
    ``source`` plus the rows kept back so far (SPEC §4.3), through the one release pipeline. ``key``,
    when given, must be the stream's key."""
    t0 = time.perf_counter()
    q0 = db.queries
    out = output_ref(release)
    name = out.display()
    stream = streams.load(db, name)
    if stream is None:
        raise BadInput(
            f"there is no release stream {name}",
            f"publish its first release with: ldiv anonymize DB --table T --qi ... --sa ... "
            f"--algorithm decomposition --output {release}",
        )
    algo = _algorithm()
    tables = algo.output_tables(out)
    recover_tables(db, (*tables, *algo.private_tables(db, out)))  # before the previous release is read
    ownership.check_release_targets(db, out, tables, replace=True, stream=True)
    batch = resolve_table(db, source)
    require_row_ids(db, batch, "a release")
    if batch.ref.schema == "ldiv" or batch.name in {t.display() for t in tables}:
        raise BadInput(f"{batch.name} is part of the release itself", "append a table of new rows")
    algo.check_append(db, stream, batch, key)
    seed = opaque.run_seed(None)  # private: recorded with the run only
    with recorded_run(
        db,
        command="release append",
        algorithm=algo.name,
        source=batch.name,
        output=name,
        params=json.dumps({"release": name, "from": batch.name, "seed": seed}),
        t0=t0,
        q0=q0,
    ) as run:
        progress = Progress(f"{algo.name} append", quiet=quiet)
        built = algo.append(db, stream, batch, out=out, progress=progress, seed=seed)
        ctx = Context(run.run_id, replace=False, progress=progress, seed=seed, end_run=run.end)
        result = publish(db, built, ctx)
        progress.done()
        result.seconds = time.perf_counter() - t0
        result.queries = db.queries - q0
        run.metrics = result.metrics
    return result
