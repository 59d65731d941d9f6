"""ldiv_db's side of the peers suite (bench/peers/suite.py), in-process through the public API: a dataset
loaded with its ARX hierarchies, the optimal full-domain search (the whole ``anonymize`` call: search,
write, verification, metrics) and ``check`` statistics, each best of ``repeat`` after a warm-up; and the
utility and verdict of a release another tool made (anjana's), measured the way ldiv_db measures its own."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Dataset:
    name: str
    csv: Path
    prefix: str  # a QI's hierarchy file is prefix + QI + ".csv"
    qi: list[str]
    sa: str


def open_dataset(workdir: Path, ds: Dataset) -> Any:
    """A DuckDB file in ``workdir`` holding ``ds`` as table ``ds.name`` with its QIs' hierarchies."""
    import ldiv_db
    from ldiv_db import taxonomy

    db = ldiv_db.Database.open(workdir / f"{ds.name}.duckdb")
    ldiv_db.load(db, ds.csv, ds.name, sep=";")
    for q in ds.qi:
        taxonomy.import_hierarchy(db, ds.name, q, f"{ds.prefix}{q}.csv")
    return db


def _model(model: str, l_value: int, c: float) -> dict[str, Any]:
    if model == "recursive":
        return {"model": "recursive", "l": l_value, "model_options": {"c": c}}
    return {"model": model, "l": l_value}


def _timed(call: Any, repeat: int) -> tuple[Any, float, float]:
    """The last result, the best wall and the best CPU seconds (this process, all its threads) of
    ``repeat`` calls after one warm-up call."""
    call()
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        result = call()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return result, min(walls), min(cpus)


def optimal(
    db: Any, ds: Dataset, model: str, l_value: int, c: float, limit: float, repeat: int
) -> dict[str, Any]:
    import ldiv_db

    def call() -> Any:
        return ldiv_db.anonymize(
            db, ds.name, ds.qi, ds.sa, algorithm="optimal", output=f"{ds.name}_opt", replace=True,
            suppression_limit=str(limit), kl=False, **_model(model, l_value, c),
        )  # fmt: skip

    res, wall, cpu = _timed(call, repeat)
    return {
        "seconds": round(wall, 4),
        "cpu_seconds": round(cpu, 4),
        "levels": [res.details["levels"][q] for q in ds.qi],
        "deleted": res.rows_deleted,
        "classes": res.classes,
        "loss": float(res.metrics["arx_loss"]),
        "ncp": float(res.metrics["ncp"]),
        "verified": bool(res.verified),
    }


def check(db: Any, ds: Dataset, model: str, l_value: int, c: float, repeat: int) -> dict[str, Any]:
    import ldiv_db

    options = {"c": c} if model == "recursive" else {}

    def call() -> Any:
        return ldiv_db.check(db, ds.name, ds.qi, ds.sa, model=model, l=l_value, **options)

    res, wall, cpu = _timed(call, repeat)
    return {
        "seconds": round(wall, 4),
        "cpu_seconds": round(cpu, 4),
        "rows": res.rows,
        "classes": res.groups,
        "k": res.k,
        "distinct_l": res.distinct_l,
        "violating_classes": res.violating_groups,
        "violating_rows": res.violating_rows,
        "statements": res.queries,
    }


def foreign_release(db: Any, ds: Dataset, csv: Path, model: str, l_value: int) -> dict[str, Any]:
    """NCP of a release another tool wrote (its QI labels are hierarchy nodes), by ldiv_db's metric on
    the same source, and whether it holds ``model`` by ldiv_db's check of its label classes."""
    import ldiv_db

    table = f"{ds.name}_foreign"
    ldiv_db.load(db, csv, table, sep=";", replace=True)
    metrics = ldiv_db.metrics(db, ds.name, table, ds.qi, ds.sa, group_column=None, kl=False)
    verdict = ldiv_db.check(db, table, ds.qi, ds.sa, model=model, l=l_value)
    return {
        "ncp": float(metrics.values["ncp"]),
        "rows": verdict.rows,
        "classes": verdict.groups,
        "holds": bool(verdict.satisfied),
    }
