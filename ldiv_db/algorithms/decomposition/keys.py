"""Row keys of a Decomposition+ release stream: a stream never publishes a source row twice.

Every row a stream receives has a key. With ``--key COLUMN[,COLUMN]`` (given on the first release and
kept by every append) the key is the text of those columns. Without it, the key is a content
fingerprint: the text of every column of the stream's first table (by name, in that table's order; a
later batch needs those columns and may have more, which are not hashed). The key text is the JSON
array of the columns' text forms (``CAST(c AS VARCHAR)``, NULL stays null), so ``1`` and ``'1'`` are the
same key. The stream stores only the md5 of the key text, in its private table ``ldiv."keys:OUT"``
(one row per received row, published or kept back).

The rule, checked once by :func:`check_batch` before anything is written: a batch is refused when a row
has a NULL key part (explicit key), when two of its rows share a key (explicit key), or when a row's key
is one the stream already received. Under the fingerprint two identical rows in different batches are the
same row (the later one is refused); identical rows inside one batch are different rows of its table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.inputs import as_list
from ...errors import BadInput
from ...sqlgen.render import Ident, TableRef, render

if TYPE_CHECKING:
    from ...core.catalog import Table
    from ...db import Database
    from .config import StreamConfig

EXAMPLES = 5


def keys_ref(db: Database, name: str) -> TableRef:
    """The stream's private key table (md5 of every received row's key)."""
    return db.private_ref(f"keys:{name}")


def key_names(value: Any, what: str, text: bool) -> tuple[str, ...]:
    """The declared form of ``--key``: ``id`` or ``a,b`` as text, or a list of names (job file, API)."""
    if isinstance(value, str):
        names = as_list(value)
    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        names = [v.strip() for v in value]
    else:
        raise BadInput(f"{what} must be column names (id or a,b), got {value!r}", f"give {what} as id or a,b")
    if not names or not all(names):
        raise BadInput(f"{what} names no column: {value!r}", f"give {what} as id or a,b")
    return tuple(names)


def parse_key(value: Any, table: Table) -> tuple[str, ...]:
    """``--key id`` or ``--key a,b`` (a list from the API or a job file) as catalog column names."""
    if value is None or value == "" or value == []:
        return ()
    names = as_list(value) if isinstance(value, str) else [str(v) for v in value]
    if not names:
        return ()
    cols = tuple(table.column(n.strip()).name for n in names)
    if len({c.lower() for c in cols}) != len(cols):
        raise BadInput(f"--key names a column twice: {', '.join(names)}", "name each key column once")
    return cols


def describe(config: StreamConfig) -> str:
    if config.key:
        return f"--key {','.join(config.key)}"
    return f"a content fingerprint (no --key) of the columns {', '.join(config.fingerprint)}"


def key_columns(config: StreamConfig) -> tuple[str, ...]:
    return config.key or config.fingerprint


def _key_idents(config: StreamConfig, batch: Table, name: str) -> list[Ident]:
    have = {c.name.lower(): c.name for c in batch.columns}
    missing = [c for c in key_columns(config) if c.lower() not in have]
    if missing:
        raise BadInput(
            f"{batch.name} lacks the column(s) {', '.join(missing)} by which the stream {name} keys its rows "
            f"({describe(config)})",
            "append a table with the same columns as the stream's first table",
        )
    return [Ident(have[c.lower()]) for c in key_columns(config)]


def check_append_key(config: StreamConfig, name: str, given: Any, table: Table) -> None:
    """``release append --key``: optional, but when given it must be the stream's key."""
    if not config.keyed or not key_columns(config):
        raise BadInput(
            f"the stream {name} was started before streams keyed their rows, so ldiv_db cannot tell "
            "whether a batch repeats rows the stream already received",
            f"start it again with: ldiv anonymize ... --algorithm decomposition --output {name} --replace "
            "[--key COLUMN]",
        )
    if given is None or given == "" or given == []:
        return
    asked = parse_key(given, table)
    if tuple(c.lower() for c in asked) != tuple(c.lower() for c in config.key):
        raise BadInput(
            f"--key {','.join(asked)} is not the key of the stream {name}, which keys its rows by "
            f"{describe(config)}",
            "drop --key (the stream keeps its own) or give the same columns as its first release",
        )


def _examples(pairs: Sequence[Any] | None, key: Sequence[str]) -> str:
    """'row 3 (id=17), row 9 (id=17)' for an explicit key; row numbers only for a fingerprint (a whole row)."""
    shown = []
    for rn, text in pairs or []:
        if not key:
            shown.append(f"row {rn}")
            continue
        try:
            parts = json.loads(text)
        except (TypeError, ValueError):
            parts = [text]
        values = ", ".join(f"{c}={'NULL' if v is None else v}" for c, v in zip(key, parts, strict=False))
        shown.append(f"row {rn} ({values})")
    more = "" if len(shown) < EXAMPLES else ", ..."
    return ", ".join(shown) + more


def check_batch(db: Database, name: str, config: StreamConfig, batch: Table, stored: bool) -> None:
    """THE check: refuse a batch that repeats a key (inside itself or of the stream) or has a NULL key,
    naming how many rows and the first few, before anything is written."""
    cols = _key_idents(config, batch, name)
    explicit = bool(config.key)
    if not explicit and not stored:  # a fingerprint's only check is against keys the stream stored: none yet
        return
    rec = db.records(
        render(
            "decomposition/keys_check.sql",
            source=batch.ref,
            key=cols,
            explicit=explicit,
            keys=keys_ref(db, name) if stored else None,
        )
    )[0]
    problems = []
    if rec["null_rows"]:
        problems.append(
            f"{rec['null_rows']} row(s) have a NULL key: {_examples(rec['null_examples'], config.key)}"
        )
    if rec["repeated_rows"]:
        problems.append(
            f"{rec['repeated_rows']} row(s) share their key with another row of the batch: "
            f"{_examples(rec['repeated_examples'], config.key)}"
        )
    if rec["known_rows"]:
        problems.append(
            f"{rec['known_rows']} row(s) the stream already received (published or kept back): "
            f"{_examples(rec['known_examples'], config.key)}"
        )
    if not problems:
        return
    how = describe(config)
    raise BadInput(
        f"{batch.name} cannot join the stream {name}: {'; '.join(problems)}; nothing was written (a stream "
        f"never publishes a row twice; it keys rows by {how})",
        "append a table of rows the stream has not received, each with a non-NULL key of its own"
        + (
            ""
            if config.key
            else " (without --key, identical rows count as the same row: start the stream with --key COLUMN "
            "if different people can have identical rows)"
        ),
    )


def write_keys(
    db: Database, target: TableRef, name: str, config: StreamConfig, batch: Table, offset: int, first: bool
) -> None:
    """Inside the release transaction: store the batch's keys into ``target`` (the stream's key table, or
    its staging table); the first release creates the table (it dropped an older stream's,
    ``ownership.drop_for_release``, or stages a new one). The digests are stored uncompressed
    (:meth:`Database.storing_incompressible`): a larger private table, written at half the cost."""
    query = render(
        "decomposition/keys_write.sql",
        {"offset": offset},
        target=target,
        source=batch.ref,
        key=_key_idents(config, batch, name),
        create=first,
    )
    with db.storing_incompressible():
        db.run(query)


def reconcile_keys(db: Database, target: TableRef, config: StreamConfig, stream_rows: int) -> list[str]:
    """One stored key per received row in ``target``; with an explicit key, no key twice."""
    rec = db.records(render("decomposition/keys_count.sql", target=target, explicit=bool(config.key)))[0]
    problems = []
    if int(rec["keys"]) != stream_rows or int(rec["distinct_rows"]) != stream_rows:
        problems.append(f"{rec['keys']} stored row keys ({rec['distinct_rows']} rows) for {stream_rows} rows")
    if config.key and int(rec["distinct_keys"]) != int(rec["keys"]):
        problems.append(f"{int(rec['keys']) - int(rec['distinct_keys'])} repeated keys stored")
    return problems
