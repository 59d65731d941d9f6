"""The run flags declared once: one typed, frozen group of settings per command (:class:`AnonymizeFlags`,
:class:`CheckFlags`, :class:`MetricsFlags`, :class:`CompareFlags`, :class:`RiskFlags`), each field
carrying its :class:`Flag` (help, kind, range, the edges that take it). Decision 0020.

From these declarations come the ``ldiv`` flags and their ``--help`` (:func:`add_arguments`), a job
file's ``[anonymize]`` keys and their TOML type checks (:func:`job_keys`, :func:`parse_flags` with source
``"job"``), the keywords of the API functions (:func:`api_flags`) and the generated reference
(docs/gen_reference.py). :func:`parse_flags` is the one validator: it runs once, at the edge (the command
line's parse, the job file's load, the API call); the layers below receive the frozen object and never
validate again. The algorithm and model options have their own declarations (:mod:`ldiv_db.core.options`,
:mod:`ldiv_db.privacy.spec`). Light on purpose: the parser is built from here before anything heavy loads.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import Field, dataclass, field, fields
from fractions import Fraction
from typing import Any, Literal, TypeVar

from ..errors import BadInput
from .options import FALSE_WORDS, MAX_INT, TRUE_WORDS, Source, did_you_mean, exact, parse_int, parse_number

# bool, int, number (exact, within its range), text (a name: non-empty), file (a path), names (a list, or
# text split at commas), numbers (a list of exact numbers), raw (given as is: checked against the data
# where it is read, the one place that can, e.g. a population size against the rows)
FlagKind = Literal["bool", "int", "number", "text", "file", "names", "numbers", "raw"]
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
    low: Any = 0
    high: Any = None
    low_open: bool = False
    absent: str = ""
    noun: str = ""
    hint: str = ""
    nullable: bool = False  # None is a value of its own (the API's group_column=None: no group column)
    append: bool = False  # the flag is repeated, each time one more (ldiv compare --release)
    metavar: str | None = None
    parser: Callable[[Any], Any] | None = None  # a special form, with its own errors

    def flag_of(self, name: str) -> str | None:
        return None if self.cli is None else (self.cli or "--" + name.replace("_", "-"))

    @property
    def negated(self) -> bool:
        return bool(self.cli and self.cli.startswith("--no-"))

    def type_text(self) -> str:
        if self.kind == "bool":
            return "true/false"
        if self.kind in ("int", "number"):
            high = {MAX_SEED: "2^63-1", 10**6: "10^6", MAX_INT: "2^31-1"}.get(self.high, str(self.high))
            word = "integer" if self.kind == "int" else "number"
            return f"{word} in {'(' if self.low_open else '['}{self.low}, {high}]"
        return {
            "text": "a column name",
            "file": "a file path",
            "names": "names, comma-separated or a list",
            "numbers": "a list of numbers",
        }.get(self.kind, "checked against the data")


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
        "a NULL SA value is a suppressed 'unknown' (counts in the group size, is no value; beside "
        "--null-as-value, which then takes the QIs' NULLs as values)",
        "bool",
        job=False,
    )


@dataclass(frozen=True)
class MetricsFlags:
    """The flags of ``ldiv metrics`` / ``ldiv_db.metrics`` besides the source, the release, the QIs and the
    SAs. ``l`` and ``interval_labels`` None: a recorded release's own (its l; its labels read as
    anonymize measured them)."""

    l: int | None = _flag(None, "l for CAVG (integer >= 2)", "int", low=2, high=MAX_INT, job=False)
    class_column: str | None = _flag(
        None, "class column for CM (must be in the release)", "text", job=False, noun="class column"
    )
    group_column: str | None = _flag(
        "group_id",
        "group column of the release (default group_id)",
        "text",
        job=False,
        noun="group column",
        nullable=True,
    )
    weights: tuple[Fraction, ...] | None = _flag(
        None,
        "the QIs' weights of IL/NCP, one per QI (default 1 each)",
        "numbers",
        cli=None,
        job=False,
        absent="CLI: the API's alone",
    )
    interval_labels: bool | None = _flag(
        None,
        "read numeric 'lo-hi' labels as ranges even where a hierarchy node has the same text "
        "(a release ldiv_db recorded is read as anonymize measured it: bsgi's and mondrian's this way)",
        "bool",
        job=False,
    )
    kl: bool = _flag(
        True,
        "measure the KL-divergence (the costliest metric); false skips it",
        "bool",
        cli="--no-kl",
        cli_help="skip the KL-divergence (the costliest metric)",
        job=False,
    )
    null_as_value: bool = _flag(
        False,
        "treat NULL as a value of its own (a release ldiv_db recorded with --null-as-value is read so "
        "without it)",
        "bool",
        job=False,
    )


@dataclass(frozen=True)
class CompareFlags:
    """The flags of ``ldiv compare`` / ``ldiv_db.compare`` besides the table, the QIs, the SAs and l."""

    algorithms: str | tuple[str, ...] | None = _flag(
        None,
        "comma-separated (default: bsgi,mondrian,tp,tp+,hilbert,lplus,topdown)",
        "raw",
        job=False,
    )
    releases: tuple[str, ...] = _flag(
        (),
        "add a release made by another tool",
        "names",
        cli="--release",
        append=True,
        job=False,
    )
    html: str | None = _flag(None, "the HTML file to write", "file", job=False)
    alpha: Fraction = _flag(  # noqa: RUF009 (a Fraction is immutable)
        Fraction(1), "alpha of topdown's distinct-alpha model (default 1)", "number", high=10**9, job=False
    )
    quiet: bool = _flag(True, "no progress on stderr", "bool", job=False)
    kl: bool = _flag(
        True,
        "measure the KL-divergence (the costliest metric); false skips it",
        "bool",
        cli="--no-kl",
        cli_help="skip the KL-divergence metric",
        job=False,
    )
    null_as_value: bool = _flag(
        False, "treat NULL as a value of its own (every algorithm's run and the measures)", "bool", job=False
    )


def parse_threshold(value: Any) -> Fraction:
    """The risk threshold τ, exact: a number in (0, 1] (``0.2``, ``1/5``)."""
    try:
        t = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise BadInput(
            f"cannot read the threshold {value!r}", "give a number in (0, 1], e.g. 0.2 or 1/5"
        ) from None
    if not 0 < t <= 1:
        raise BadInput(f"the threshold {value} is outside (0, 1]", "give a risk between 0 and 1, e.g. 0.2")
    return t


@dataclass(frozen=True)
class RiskFlags:
    """The flags of ``ldiv risk`` / ``ldiv_db.risk`` besides what is measured (a table or a release, its
    QIs). The population size and the sampling fraction are read against the data's rows."""

    population: int | str | None = _flag(
        None, "the population size N (an integer >= the rows)", "raw", job=False
    )
    sampling_fraction: float | str | None = _flag(None, "n/N in (0, 1]", "raw", job=False)
    population_table: str | None = _flag(
        None,
        "a table of the whole population with the same QI columns (journalist risk, exact uniqueness)",
        "text",
        job=False,
        noun="population table",
    )
    threshold: Fraction = _flag(  # noqa: RUF009 (a Fraction is immutable)
        Fraction(1, 5),
        "risk threshold in (0, 1] (default 0.2)",
        "number",
        job=False,
        parser=parse_threshold,
    )
    rows_out: str | None = _flag(
        None,
        "write a new table with every row's class keys and risks (one transaction; never replaces)",
        "text",
        job=False,
        noun="rows-out table",
        metavar="TABLE",
    )
    null_as_value: bool = _flag(False, "treat NULL as a value of its own", "bool", job=False)


Flags = TypeVar("Flags", AnonymizeFlags, CheckFlags, MetricsFlags, CompareFlags, RiskFlags)


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
            if d.nullable:
                out[key] = None
            continue
        what = d.flag_of(key) or key if source == "cli" else prefix + key
        out[key] = _parse(d, key, value, what, source)
    return group(**out)


def api_flags(group: type[Flags], given: Flags | None, kw: Mapping[str, Any], where: str) -> Flags:
    """The API's keywords of ``where`` (e.g. "ldiv_db.metrics") as ``group``: ``given`` as it is (a
    caller that validated them), else ``kw`` validated; a keyword the group does not declare is an error
    listing the ones it does."""
    if given is not None:
        if kw:
            raise BadInput(f"{where} takes the flags or keywords, not both: {', '.join(kw)}", "give one")
        return given
    known = api_keys(group)
    for key in kw:
        if key not in known:
            raise BadInput(
                f"unknown keyword {key!r} of {where}",
                f"{did_you_mean(key, known)}its keywords are: {', '.join(known)}",
            )
    return parse_flags(group, kw, "api")


def _parse(d: Flag, key: str, value: Any, what: str, source: Source) -> Any:
    text = source != "job"
    if d.parser is not None:
        return d.parser(value)
    if d.kind == "raw":
        return value
    if d.kind == "number":
        return parse_number(value, what, low=d.low, high=d.high, low_open=d.low_open, text=text)
    if d.kind == "numbers":
        if not isinstance(value, (list, tuple)):
            raise _wrong(what, "a list of numbers", value, f"write e.g. {key} = [1, 2]")
        return tuple(exact(v, f"{what} entry") for v in value)
    if d.kind == "file":
        if isinstance(value, str) and not value.strip():
            raise BadInput(f"the {what} path is empty", "name the file to write, e.g. page.html")
        if not isinstance(value, str):
            raise _wrong(what, "a file path", value, f'write e.g. {key} = "page.html"')
        return value
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
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _wrong(what, "a list of column names", value, f'write e.g. {key} = ["a", "b"]')


def _wrong(what: str, expected: str, value: Any, hint: str) -> BadInput:
    return BadInput(f"{what} must be {expected}, got {value!r} ({type(value).__name__})", hint)


def add_arguments(parser: Any, group: type[Any], names: Sequence[str] | None = None) -> None:
    """A flag group's command-line flags (``names``: only these, e.g. into a mutually exclusive group):
    booleans as switches (``--no-kl`` stores False in ``kl``; off when absent, whatever the API's
    default: ``--quiet``), the others as text for :func:`parse_flags`, defaulting to the field's default."""
    for f, d in declared(group):
        flag = d.flag_of(f.name)
        if flag is None or (names is not None and f.name not in names):
            continue
        shown = d.cli_help or d.help
        if d.kind == "bool":  # absent: the switch is off (None where the setting has a third state)
            off = None if f.default is None else d.negated
            action = "store_false" if d.negated else "store_true"
            parser.add_argument(flag, dest=f.name, action=action, default=off, help=shown)
        elif d.append:
            parser.add_argument(flag, dest=f.name, action="append", default=None, help=shown)
        else:
            extra = {"metavar": d.metavar} if d.metavar else {}
            parser.add_argument(flag, dest=f.name, default=f.default, help=shown, **extra)


def from_namespace(group: type[Flags], args: argparse.Namespace) -> Flags:
    """The group's flags as the command line gave them, validated (the command line's one read)."""
    values = {f.name: getattr(args, f.name) for f, d in declared(group) if d.flag_of(f.name) is not None}
    return parse_flags(group, values, "cli")
