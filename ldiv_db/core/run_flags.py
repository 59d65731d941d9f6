"""The run flags declared once: typed, frozen groups of settings (:class:`AnonymizeFlags`,
:class:`CheckFlags`), each field carrying its :class:`Flag` (help, kind, range, the edges that take it).

From these declarations come the ``ldiv`` flags and their ``--help`` (:func:`add_arguments`), a job
file's ``[anonymize]`` keys and their TOML type checks (:func:`job_keys`, :meth:`parse` with source
``"job"``), the keywords of :func:`ldiv_db.anonymize` / :func:`ldiv_db.check` and the generated reference
(docs/gen_reference.py). :func:`parse_flags` is the one validator: it runs once, at the edge (the command
line's parse, the job file's load, the API call); the layers below receive the frozen object and never
validate again. The algorithm and model options have their own declarations (:mod:`ldiv_db.core.options`,
:mod:`ldiv_db.privacy.spec`). Light on purpose: the parser is built from here before anything heavy loads.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any, Literal, TypeVar

from ..errors import BadInput
from .options import FALSE_WORDS, TRUE_WORDS, Source, parse_int

FlagKind = Literal["bool", "int", "text", "names"]
MAX_SEED = 2**63 - 1  # a seed is a BIGINT of the run record


@dataclass(frozen=True)
class Flag:
    """How one setting is given. ``cli``: the command-line flag ("" for ``--name-with-dashes``, None
    for none); ``cli_help`` where the flag says the opposite of the setting (``--no-kl`` for
    ``kl``); ``job`` / ``api``: whether a job file's ``[anonymize]`` and the API take it, ``absent``
    saying why an edge does not; ``noun``: what a text setting names, for its error."""

    help: str
    kind: FlagKind
    cli: str | None = ""
    cli_help: str = ""
    job: bool = True
    api: bool = True
    low: int = 0
    high: int | None = None
    absent: str = ""
    noun: str = ""
    hint: str = ""

    def flag_of(self, name: str) -> str | None:
        return None if self.cli is None else (self.cli or "--" + name.replace("_", "-"))

    @property
    def negated(self) -> bool:
        return bool(self.cli and self.cli.startswith("--no-"))

    def type_text(self) -> str:
        if self.kind == "bool":
            return "true/false"
        if self.kind == "int":
            high = {MAX_SEED: "2^63-1", 10**6: "10^6"}.get(self.high or MAX_SEED, str(self.high))
            return f"integer in [{self.low}, {high}]"
        return "a column name" if self.kind == "text" else "column names, comma-separated or a list"


def _flag(default: Any, help: str, kind: FlagKind, **how: Any) -> Any:
    return field(default=default, metadata={"flag": Flag(help, kind, **how)})


@dataclass(frozen=True)
class AnonymizeFlags:
    """The run flags of one anonymize run (``ldiv anonymize``, a job's ``[anonymize]``,
    ``ldiv_db.anonymize``); the defaults are the API's."""

    replace: bool = _flag(
        False,
        "replace an existing output (atomically)",
        "bool",
        job=False,
        absent="job: a job always replaces its own release",
    )
    quiet: bool = _flag(
        True,
        "no progress on stderr",
        "bool",
        job=False,
        absent="job: `ldiv run --quiet`",
    )
    verbose: bool = _flag(
        False,
        "also print the algorithm's details (always in --json)",
        "bool",
        api=False,
        absent="API: the result's render_text(verbose=True)",
    )
    seed: int | None = _flag(
        None,
        "seed of the random choices and of the key that breaks ties among rows (integer in [0, 2^63-1];"
        " private: recorded in ldiv.run only; default: a fresh one per run)",
        "int",
        high=MAX_SEED,
    )
    keep_work: bool = _flag(
        False,
        "keep intermediate tables in schema ldiv_work",
        "bool",
        job=False,
        absent="job: a debugging aid of the command line and the API",
    )
    keep_columns: tuple[str, ...] = _flag(
        (), "other columns to publish unchanged (never identifiers!)", "names"
    )
    class_column: str | None = _flag(
        None,
        "class column (CM metric); published unchanged",
        "text",
        noun="class column",
        hint="name the source column that holds the class (for CM), or leave the option out",
    )
    null_as_value: bool = _flag(False, "treat NULL as a value of its own", "bool")
    kl: bool = _flag(
        True,
        "measure the KL-divergence (the costliest metric); false skips it",
        "bool",
        cli="--no-kl",
        cli_help="skip the KL-divergence metric (the costliest metric)",
    )
    allow_empty: bool = _flag(
        False,
        "publish the release even when it has no rows (refused by default, with the reason)",
        "bool",
    )
    no_group_column: bool = _flag(
        False,
        "publish no group column: the release's classes are its QI label vectors, which must hold "
        "the model themselves (the run is refused where they do not)",
        "bool",
    )


@dataclass(frozen=True)
class CheckFlags:
    """The flags of ``ldiv check`` / ``ldiv_db.check`` besides the table, the QIs, the SAs and the model
    (``worst``: None in the API lists every violating class). No job file runs a check: no job keys."""

    group_column: str | None = _flag(
        None,
        "group by this column instead of the QI values",
        "text",
        job=False,
        noun="group column",
    )
    by_labels: bool = _flag(
        False,
        "on a recorded release: group by the QI labels alone (its label classes) instead of its classes",
        "bool",
        job=False,
    )
    null_as_value: bool = _flag(False, "treat NULL as a value of its own", "bool", job=False)
    worst: int = _flag(
        5,
        "how many of the worst groups to list (0..10^6; default 5)",
        "int",
        high=10**6,
        job=False,
    )
    null_sa_unknown: bool = _flag(
        False,
        "a NULL SA value is a suppressed 'unknown' (counts in the group size, is no value)",
        "bool",
        job=False,
    )


Flags = TypeVar("Flags", AnonymizeFlags, CheckFlags)


def declared(group: type[Any]) -> list[tuple[Field[Any], Flag]]:
    """The fields of a flag group with their declarations, in order."""
    return [(f, f.metadata["flag"]) for f in fields(group)]


def job_keys(group: type[Any]) -> tuple[str, ...]:
    return tuple(f.name for f, d in declared(group) if d.job)


def api_keys(group: type[Any]) -> tuple[str, ...]:
    return tuple(f.name for f, d in declared(group) if d.api)


def parse_flags(group: type[Flags], values: Mapping[str, Any], source: Source, prefix: str = "") -> Flags:
    """The one validator of a flag group: ``values`` (every key a field of ``group``; None means not
    given) from the command line (text), a job file (typed TOML values, names ``prefix`` + key) or the
    API (typed values or the command line's text)."""
    by_name = {f.name: d for f, d in declared(group)}
    out: dict[str, Any] = {}
    for key, value in values.items():
        d = by_name[key]
        if value is None:
            continue
        what = d.flag_of(key) or key if source == "cli" else prefix + key
        out[key] = _parse(d, key, value, what, source)
    return group(**out)


def _parse(d: Flag, key: str, value: Any, what: str, source: Source) -> Any:
    text = source != "job"
    if d.kind == "bool":
        if isinstance(value, bool):
            return value
        word = value.strip().lower() if text and isinstance(value, str) else None
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise _wrong(what, "true or false", value, f"write e.g. {key} = true")
    if d.kind == "int":
        return parse_int(value, what, low=d.low, high=d.high or MAX_SEED, text=text)
    if d.kind == "text":
        if not isinstance(value, str):
            raise _wrong(what, "a column name", value, f'write e.g. {key} = "..."')
        if not value:
            raise BadInput(f"the {d.noun} {value!r} is not a column name", d.hint or None)
        return value
    if isinstance(value, str):
        return tuple(v for v in value.split(",") if v.strip())
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _wrong(what, "a list of column names", value, f'write e.g. {key} = ["a", "b"]')


def _wrong(what: str, expected: str, value: Any, hint: str) -> BadInput:
    return BadInput(f"{what} must be {expected}, got {value!r} ({type(value).__name__})", hint)


def add_arguments(parser: argparse.ArgumentParser, group: type[Any]) -> None:
    """A flag group's command-line flags: booleans as switches (``--no-kl`` stores False in ``kl``),
    the others as text for :func:`parse_flags`."""
    for f, d in declared(group):
        flag = d.flag_of(f.name)
        if flag is None:
            continue
        if d.kind == "bool":
            action = "store_false" if d.negated else "store_true"
            parser.add_argument(flag, dest=f.name, action=action, help=d.cli_help or d.help)
        else:
            parser.add_argument(flag, dest=f.name, default=None, help=d.cli_help or d.help)


def from_namespace(group: type[Flags], args: argparse.Namespace) -> Flags:
    """The group's flags as the command line gave them, validated (the command line's one read)."""
    values = {f.name: getattr(args, f.name) for f, d in declared(group) if d.flag_of(f.name) is not None}
    return parse_flags(group, values, "cli")
