"""``ldiv run job.toml``: an ETL step that does what the flags do. Paths in the file are relative to it.

.. code-block:: toml

    database = "warehouse.duckdb"

    [source]
    table = "adult"
    load = "adult.csv"          # optional: (re)load the table from a file first
    sep = ";"

    [hierarchies]               # column = ARX file, or an interval spec for numeric columns
    education = "adult_hierarchy_education.csv"
    age = { intervals = [5, 10, 20, 40] }

    [anonymize]
    qi = ["age", "education", "sex"]
    sa = "occupation"
    algorithm = "full-domain"
    model = "distinct"
    l = 2
    output = "adult_release"
    kl = true                   # false skips the KL-divergence metric (the costliest one)
    allow_empty = false         # true publishes a release without rows (refused by default)
    verbose = false             # true: the text output lists the algorithm's details (ldiv run --verbose)

    [anonymize.options]         # algorithm options
    levels = { age = 2, education = 1, sex = 0 }

    [anonymize.model_options]   # c, k, alpha, thresholds, sensitivity, categories, weights, beta,
    c = 3                       # entropy_over, t, distance, sa_order, delta, delta_variant, likeness

Every key is checked: unknown keys, values of the wrong type and out-of-range numbers are errors that
name the key.

A job is one transaction: its load, hierarchies and release are kept together or not at all. Re-running a
job replaces its previous release atomically (until it commits, the previous release is intact). Only its own release: an ``output``
naming any other table is refused (ldiv_db/core/ownership.py).
"""

from __future__ import annotations

import dataclasses
import re
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import taxonomy
from ..algorithms import get_algorithm
from ..core import ownership
from ..core.catalog import output_ref, table_at
from ..core.options import did_you_mean, parse_int, validate
from ..core.run_flags import AnonymizeFlags, declared, job_keys, parse_flags
from ..db import Database
from ..db.urls import is_postgres_url
from ..errors import BadInput, LdivError
from ..privacy.spec import MODEL_OPTIONS, ModelSpec
from ..sqlgen.render import TableRef
from ..util.files import read_text
from .anonymize import AnonymizeCall, AnonymizeResult, anonymize
from .load import LoadResult, load, load_table, parse_sep

TOP_KEYS = ("database", "source", "hierarchies", "anonymize")
SOURCE_KEYS = ("table", "load", "sep", "attach")
# [anonymize] key -> (expected type, its name in errors); options/model_options are checked by declaration,
# the run flags by theirs (ldiv_db/core/run_flags.py: AnonymizeFlags)
ANONYMIZE_KEYS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "qi": ((str, list), "a column name or a list of names"),
    "sa": ((str, list), "a column name or a list of names"),
    "algorithm": (str, "an algorithm name"),
    "output": (str, "a table name"),
    "model": (
        (str, list),
        'a model name, or a list of models that hold at once: ["distinct", "t-closeness"]',
    ),
    "l": ((int, list, str), 'an integer >= 2, a list (one per SA) or "auto"'),
    "options": (dict, "a table of algorithm options"),
    "model_options": (dict, "a table of model options"),
}
FLAG_KEYS = job_keys(AnonymizeFlags)


def _check_keys(p: Path, where: str, table: dict[str, Any], allowed: Sequence[str]) -> None:
    for key in table:
        if key not in allowed:
            raise BadInput(
                f"job file {p}: unknown key {key!r} in {where}",
                f"{did_you_mean(key, list(allowed))}the keys of {where} are: {', '.join(allowed)}",
            )


def _typed(p: Path, where: str, key: str, value: Any, expected: type | tuple[type, ...], name: str) -> Any:
    """A job-file value of the expected TOML type (true/false are never text, numbers never floats)."""
    ok = isinstance(value, expected) and not (isinstance(value, bool) and bool not in _types(expected))
    if not ok:
        raise BadInput(
            f"job file {p}: {where}{key} must be {name}, got {value!r} ({type(value).__name__})",
            f"write e.g. {key} = " + ("true" if expected is bool else '"..."' if expected is str else "..."),
        )
    if isinstance(value, list) and not all(
        isinstance(x, (str, int)) and not isinstance(x, bool) for x in value
    ):
        raise BadInput(f"job file {p}: {where}{key} must be {name}, got {value!r}", f"write {key} as {name}")
    return value


def _types(expected: type | tuple[type, ...]) -> tuple[type, ...]:
    return expected if isinstance(expected, tuple) else (expected,)


def _hierarchies(p: Path, data: Any, rel: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadInput(
            f"job file {p}: [hierarchies] must be a table column = file",
            "see the job file example in docs/how-to/job-files.md",
        )
    hier: dict[str, Any] = {}
    for col, spec in data.items():
        where = f"hierarchy of {col!r}"
        if isinstance(spec, str):
            hier[col] = {"file": rel(spec)}
        elif isinstance(spec, dict) and "file" in spec:
            _check_keys(p, where, spec, ("file", "sep"))
            _typed(p, f"{where}: ", "file", spec["file"], str, "a file path")
            _typed(p, f"{where}: ", "sep", spec.get("sep", ";"), str, "a separator")
            hier[col] = {**spec, "file": rel(spec["file"])}
        elif isinstance(spec, dict) and "intervals" in spec:
            _check_keys(p, where, spec, ("intervals",))
            widths = spec["intervals"]
            if not isinstance(widths, list) or not widths:
                raise BadInput(
                    f"job file {p}: {where}: intervals must be a list of widths, got {widths!r}",
                    "e.g. intervals = [5, 10, 20]",
                )
            try:
                hier[col] = {"intervals": [parse_int(x, f"{where}: intervals entry", low=1) for x in widths]}
            except BadInput as exc:
                raise BadInput(f"job file {p}: {exc.message}", exc.hint) from None
        else:
            raise BadInput(
                f"job file {p}: hierarchy of {col!r} must be a file or {{ intervals = [...] }}, got {spec!r}",
                f'{col} = "hierarchy.csv" or {col} = {{ intervals = [5, 10] }}',
            )
    return hier


@dataclass
class Job:
    path: Path
    database: Path | str  # a DuckDB file (relative to the job file) or a postgresql:// URL
    table: str
    load_file: Path | None
    sep: str | None
    attach: dict[str, str]
    hierarchies: dict[str, Any]
    anonymize: dict[str, Any]  # the [anonymize] table as written (options validated)
    call: AnonymizeCall  # the same, validated: what the job runs

    @classmethod
    def read(cls, path: str | Path) -> Job:
        p = Path(path)
        if not p.is_file():
            raise BadInput(
                f"job file {p} does not exist" if not p.exists() else f"job file {p} is not a file",
                "give the path of a TOML job file",
            )
        try:
            data = tomllib.loads(read_text(p, "job file", "a TOML job file (see docs/how-to/job-files.md)"))
        except tomllib.TOMLDecodeError as exc:
            raise BadInput(f"job file {p} is not valid TOML: {exc}", "check the line it names") from None
        base = p.parent

        def rel(x: str) -> Path:
            q = Path(x)
            return q if q.is_absolute() else base / q

        _check_keys(p, "the job file", data, TOP_KEYS)
        for key in ("database", "source", "anonymize"):
            if key not in data:
                raise BadInput(
                    f"job file {p} lacks '{key}'", "see the job file example in docs/how-to/job-files.md"
                )
        _typed(p, "", "database", data["database"], str, "a file path")
        src = _typed(p, "", "source", data["source"], dict, "a table [source]")
        _check_keys(p, "[source]", src, SOURCE_KEYS)
        if "table" not in src:
            raise BadInput(f"job file {p}: [source] needs a table", 'write table = "..." under [source]')
        for key in ("table", "load", "sep"):
            if key in src:
                _typed(p, "source.", key, src[key], str, "text")
        attach = _typed(p, "source.", "attach", src.get("attach", {}), dict, "a table NAME = PATH")
        for k, v in attach.items():
            _typed(p, "source.attach.", k, v, str, "a file path")
        an = dict(_typed(p, "", "anonymize", data["anonymize"], dict, "a table [anonymize]"))
        _check_keys(p, "[anonymize]", an, [*ANONYMIZE_KEYS, *FLAG_KEYS])
        for key in ("qi", "sa", "algorithm", "output"):
            if key not in an:
                raise BadInput(
                    f"job file {p}: [anonymize] needs {key}",
                    "see the job file example in docs/how-to/job-files.md",
                )
        for key, value in an.items():
            if key in ANONYMIZE_KEYS:
                _typed(p, "anonymize.", key, value, *ANONYMIZE_KEYS[key])
        cats = (an.get("model_options") or {}).get("categories")
        if isinstance(cats, str):  # a file: relative to the job file, like every path in it
            an["model_options"] = {**an["model_options"], "categories": str(rel(cats))}
        return cls(
            path=p,
            database=str(data["database"])
            if is_postgres_url(str(data["database"]))
            else rel(str(data["database"])),
            table=str(src["table"]),
            load_file=rel(src["load"]) if src.get("load") else None,
            sep=src.get("sep"),
            attach={k: str(rel(v)) for k, v in attach.items()},
            hierarchies=_hierarchies(p, data.get("hierarchies") or {}, rel),
            anonymize=an,
            call=cls._call(p, str(src["table"]), an),
        )

    @staticmethod
    def _call(p: Path, table: str, an: dict[str, Any]) -> AnonymizeCall:
        """The [anonymize] table validated against its declarations: the algorithm's options, the model
        and the run flags (keys and types), once, as the job is read."""
        algo = get_algorithm(an["algorithm"])
        try:
            an["options"] = validate(
                algo.options, an.get("options") or {}, "job", f"{algo.name} options", "options."
            )
            model = {"model": an.get("model"), "l": an.get("l"), **(an.get("model_options") or {})}
            spec = ModelSpec.parse({k: v for k, v in model.items() if v is not None}, "job", "anonymize.")
            given = {k: an[k] for k in FLAG_KEYS if k in an}
            flags = parse_flags(AnonymizeFlags, given, "job", "anonymize.")
        except BadInput as exc:
            raise BadInput(f"job file {p}: " + exc.message, exc.hint) from None
        return AnonymizeCall(table, an["qi"], an["sa"], an["output"], algo.name, spec, an["options"], flags)


@dataclass
class JobResult:
    job: str
    loaded: LoadResult | None
    hierarchies: list[str] = field(default_factory=list)
    release: AnonymizeResult | None = None
    verbose: bool = False  # [anonymize] verbose: the text lists the algorithm's details

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": self.job,
            "loaded": self.loaded.to_dict() if self.loaded else None,
            "hierarchies": self.hierarchies,
            "release": self.release.to_dict() if self.release else None,
        }

    def render_text(self, verbose: bool = False) -> str:
        lines = [f"job {self.job}"]
        if self.loaded:
            lines.append(self.loaded.render_text())
        lines += [f"hierarchy {h}" for h in self.hierarchies]
        if self.release:
            lines.append(self.release.render_text(verbose=verbose or self.verbose))
        return "\n".join(lines)


_FLAG = re.compile(r"--[a-z][a-z-]*")


def job_words(text: str, algorithm: str) -> str:
    """``text`` (an error's message or hint) in a job file's words: each command-line flag becomes the
    job key that sets it, with its table (``--suppression-limit`` -> ``suppression_limit in
    [anonymize.options]``). Flags a job has no key for stay as they are."""
    keys = {f"--{name}": f"{name} in [anonymize]" for name in ("qi", "sa", "output", "model", "l")}
    for f, d in declared(AnonymizeFlags):
        flag = d.flag_of(f.name)
        if d.job and flag is not None:  # a switch is a boolean key: --no-kl is kl = false
            said = f"{f.name} = {'false' if d.negated else 'true'}" if d.kind == "bool" else f.name
            keys[flag] = f"{said} in [anonymize]"
    keys |= {o.flag: f"{o.name} in [anonymize.model_options]" for o in MODEL_OPTIONS if o.flag not in keys}
    keys |= {o.flag: f"{o.name} in [anonymize.options]" for o in get_algorithm(algorithm).options}
    return _FLAG.sub(lambda m: keys.get(m.group(0), m.group(0)), text)


def run_job(path: str | Path, *, quiet: bool = True) -> JobResult:
    """Run a job file; an error raised while it runs names the job's keys, not the command line's flags
    (the one translation: :func:`job_words`)."""
    job = Job.read(path)
    try:
        return _run_opened(job, quiet)
    except LdivError as exc:
        algorithm = str(job.anonymize["algorithm"])
        exc.message = job_words(exc.message, algorithm)
        exc.hint = job_words(exc.hint, algorithm) if exc.hint else exc.hint
        exc.args = (exc.message,)
        raise


def _run_opened(job: Job, quiet: bool) -> JobResult:
    with Database.writing(job.database, attach=job.attach) as db:
        staged = _stage_load(db, job)
        try:
            return _run(db, job, staged, quiet)
        finally:
            if staged is not None:  # the job was refused: its staged load goes (renamed away otherwise)
                ownership.drop_job_stage(db, staged[0])


def _stage_load(db: Database, job: Job) -> tuple[TableRef, TableRef, LoadResult] | None:
    """The job's load, committed before the job's transaction where the engine's row ids of uncommitted
    rows are provisional (DuckDB: ``Database.local_row_base``): into a table beside the one it reloads
    (:func:`ownership.job_stage`), so that the release's private link ``ldiv.release_row`` names the
    rows' committed ids. The job's transaction then gives it the table's name (a rename keeps the ids).
    Returns (staging table, target, what was loaded), or None where the load runs in the transaction."""
    if job.load_file is None or db.local_row_base is None:
        return None
    target = ownership.check_load_target(db, output_ref(job.table), replace=True)
    stage = ownership.job_stage(db, target)
    loaded = load_table(
        db, job.load_file, stage, sep=parse_sep(job.sep), replace=False, t0=time.perf_counter()
    )
    return stage, target, loaded


def _run(
    db: Database, job: Job, staged: tuple[TableRef, TableRef, LoadResult] | None, quiet: bool
) -> JobResult:

    with db.transaction():  # one job, one transaction: a refused step leaves the file as it was
        if staged is not None:
            stage, target, loaded_stage = staged
            ownership.swap_in_job_stage(db, stage, target)
            loaded: LoadResult | None = dataclasses.replace(loaded_stage, table=table_at(db, target).name)
        elif job.load_file:
            loaded = load(db, job.load_file, job.table, sep=job.sep, replace=True)
        else:
            loaded = None
        result = JobResult(str(job.path), loaded, verbose=job.call.flags.verbose)
        for col, spec in job.hierarchies.items():
            if "file" in spec:
                info = taxonomy.import_hierarchy(db, job.table, col, spec["file"], sep=spec.get("sep", ";"))
            else:
                info = taxonomy.build_hierarchy(db, job.table, col, spec["intervals"])
            result.hierarchies.append(str(info))
        flags = dataclasses.replace(job.call.flags, replace=True, quiet=quiet)
        result.release = anonymize(db, dataclasses.replace(job.call, flags=flags))
        return result
