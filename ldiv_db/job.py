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

    [anonymize.options]         # algorithm options
    levels = { age = 2, education = 1, sex = 0 }

    [anonymize.model_options]   # c, k, alpha, thresholds, categories, weights, beta
    c = 3

Re-running a job replaces its previous release atomically (the new output and its records are written in
one transaction; until it commits, the previous release is intact). Only its own release: an ``output``
naming any other table is refused (ldiv_db/ownership.py).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .anonymize import AnonymizeResult, anonymize
from .db import Database
from .errors import BadInput
from .load import LoadResult, load


@dataclass
class Job:
    path: Path
    database: Path
    table: str
    load_file: Path | None
    sep: str | None
    attach: dict[str, str]
    hierarchies: dict[str, Any]
    anonymize: dict[str, Any]

    @classmethod
    def read(cls, path: str | Path) -> Job:
        p = Path(path)
        if not p.exists():
            raise BadInput(f"job file {p} does not exist")
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise BadInput(f"job file {p} is not valid TOML: {exc}") from None
        base = p.parent

        def rel(x: str) -> Path:
            q = Path(x)
            return q if q.is_absolute() else base / q

        for key in ("database", "source", "anonymize"):
            if key not in data:
                raise BadInput(
                    f"job file {p} lacks '{key}'", "see `ldiv run --help` and the README's job example"
                )
        src = data["source"]
        if "table" not in src:
            raise BadInput(f'job file {p}: [source] needs table = "..."')
        an = dict(data["anonymize"])
        for key in ("qi", "sa", "algorithm", "output"):
            if key not in an:
                raise BadInput(f"job file {p}: [anonymize] needs {key}")
        hier: dict[str, Any] = {}
        for col, spec in (data.get("hierarchies") or {}).items():
            if isinstance(spec, str):
                hier[col] = {"file": rel(spec)}
            elif isinstance(spec, dict) and "file" in spec:
                hier[col] = {**spec, "file": rel(spec["file"])}
            elif isinstance(spec, dict) and "intervals" in spec:
                hier[col] = {"intervals": [int(x) for x in spec["intervals"]]}
            else:
                raise BadInput(
                    f"job file {p}: hierarchy of {col!r} must be a file or {{ intervals = [...] }}"
                )
        return cls(
            path=p,
            database=rel(str(data["database"])),
            table=str(src["table"]),
            load_file=rel(src["load"]) if src.get("load") else None,
            sep=src.get("sep"),
            attach={k: str(rel(v)) for k, v in (src.get("attach") or {}).items()},
            hierarchies=hier,
            anonymize=an,
        )


@dataclass
class JobResult:
    job: str
    loaded: LoadResult | None
    hierarchies: list[str] = field(default_factory=list)
    release: AnonymizeResult | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": self.job,
            "loaded": self.loaded.to_dict() if self.loaded else None,
            "hierarchies": self.hierarchies,
            "release": self.release.to_dict() if self.release else None,
        }

    def render_text(self) -> str:
        lines = [f"job {self.job}"]
        if self.loaded:
            lines.append(self.loaded.render_text())
        lines += [f"hierarchy {h}" for h in self.hierarchies]
        if self.release:
            lines.append(self.release.render_text())
        return "\n".join(lines)


def _flag(section: dict[str, Any], key: str) -> bool:
    value = section.get(key, False)
    if not isinstance(value, bool):
        raise BadInput(f"[anonymize] {key} must be true or false, got {value!r}", f"write {key} = true")
    return value


def run_job(path: str | Path, *, quiet: bool = True) -> JobResult:
    from . import taxonomy

    job = Job.read(path)
    db = Database.open(job.database, mode="write", attach=job.attach)
    try:
        loaded = load(db, job.load_file, job.table, sep=job.sep, replace=True) if job.load_file else None
        result = JobResult(str(job.path), loaded)
        for col, spec in job.hierarchies.items():
            if "file" in spec:
                info = taxonomy.import_hierarchy(db, job.table, col, spec["file"], sep=spec.get("sep", ";"))
            else:
                info = taxonomy.build_hierarchy(db, job.table, col, spec["intervals"])
            result.hierarchies.append(str(info))
        an = job.anonymize
        result.release = anonymize(
            db,
            job.table,
            an["qi"],
            an["sa"],
            algorithm=an["algorithm"],
            output=an["output"],
            l=an.get("l"),
            model=an.get("model"),
            replace=True,
            quiet=quiet,
            keep_columns=an.get("keep_columns", []),
            class_column=an.get("class_column"),
            null_as_value=bool(an.get("null_as_value", False)),
            seed=an.get("seed"),
            model_options=an.get("model_options") or {},
            kl=bool(an.get("kl", True)),
            allow_empty=_flag(an, "allow_empty"),
            **(an.get("options") or {}),
        )
        return result
    finally:
        db.close()
