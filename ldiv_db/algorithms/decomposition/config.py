"""What every release of a Decomposition+ stream shares, stored as the stream's configuration (JSON in
``ldiv.stream.config``), the names of a release's tables, and where a release goes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from ...sqlgen.render import Ident, TableRef
from ..base import StreamState

NOISE_MODES = ("distance", "random")
DEFAULT_THRESHOLD = 2

# a stream keeps its first release's NULL policy: without --null-as-value there, no batch may hold a NULL
STREAM_NULL = (
    "the stream's first release was made without --null-as-value, so its batches may hold no NULL: "
    "filter those rows out first"
)


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


def outputs(out: TableRef) -> tuple[TableRef, TableRef, TableRef]:
    """OUT_qid, OUT_sa, OUT_marginals next to OUT."""
    return (
        TableRef(f"{out.name}_qid", out.schema),
        TableRef(f"{out.name}_sa", out.schema),
        TableRef(f"{out.name}_marginals", out.schema),
    )


@dataclass(frozen=True)
class Place:
    """Where a release goes: its name, the stream it continues (None: a first release), the source of
    the hierarchies, and the work tables that hold the pool and copies of the previous release."""

    out: TableRef
    stream: StreamState | None
    hierarchy_source: str
    pool: TableRef
    previous: tuple[TableRef, TableRef, TableRef] | None  # QID, SA, marginals of the previous release
    retained: TableRef  # the stream's private tables (schema ldiv): the rows kept back
    keys: TableRef  # and the received rows' keys

    @property
    def name(self) -> str:
        return self.out.display()

    @property
    def release(self) -> int:
        return 1 if self.stream is None else self.stream.releases + 1

    @property
    def offset(self) -> int:
        return 0 if self.stream is None else self.stream.next_key
