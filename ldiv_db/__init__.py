"""ldiv_db: in-database l-diversity anonymization on DuckDB, PostgreSQL and Spark.

Public API (each accepts a database path, a PostgreSQL URL, a ``spark://`` session, a duckdb connection
or a :class:`Database`)::

    ldiv_db.check(db, table, qi, sa, model=..., l=...)      # privacy statistics and a model's verdict
    ldiv_db.anonymize(db, table, qi, sa, algorithm=..., l=..., output=...)
    ldiv_db.metrics(db, source, release, qi, sa)
    ldiv_db.suggest_l(db, table, sa)
    ldiv_db.report(db, releases, html="report.html")         # the offline HTML report of releases
    ldiv_db.compare(db, table, qi, sa, l, html="compare.html")  # run the algorithms, one page to choose
    ldiv_db.compose(db, ["release_a", "release_b"])          # what several releases reveal together
    ldiv_db.risk(db, "adult", qi=["age", "sex"])             # re-identification risk, every figure audited
    ldiv_db.load(db, file, table)
    ldiv_db.run_job(path)                                   # an ETL job file (TOML)
    ldiv_db.publish(db, release)                            # publish a draft, checked with the published
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import BadInput, LdivError, PrivacyViolation
from .version import __version__ as __version__

if TYPE_CHECKING:
    from .api import (
        AnonymizeResult,
        CheckResult,
        CompareResult,
        Composition,
        LoadResult,
        MetricsResult,
        ReportResult,
        RiskResult,
        SuggestResult,
        anonymize,
        check,
        compare,
        compose,
        load,
        metrics,
        publish,
        releases,
        report,
        risk,
        suggest_l,
    )
    from .commands.job import Job, run_job
    from .db import Database
    from .privacy.spec import ModelSpec

# The public names load on first use (PEP 562): ``import ldiv_db`` stays light, so the ``ldiv`` command
# reaches its own error handling (Ctrl-C during start-up, broken pipes) before the heavy imports. Each name
# loads the module that defines it, not the whole API: ``ldiv_db.anonymize`` does not import the report's
# charts (matplotlib), ``ldiv_db.check`` no algorithm's (decision 0033).
_LAZY = {
    **dict.fromkeys(
        (
            "CompareResult",
            "Composition",
            "MetricsResult",
            "ReportResult",
            "RiskResult",
            "SuggestResult",
            "compare",
            "compose",
            "metrics",
            "publish",
            "report",
            "risk",
            "suggest_l",
        ),
        ".api",
    ),
    "anonymize": ".commands.frames",
    "check": ".commands.frames",
    "AnonymizeResult": ".pipeline.result",
    "CheckResult": ".verify.check",
    "LoadResult": ".commands.load",
    "load": ".commands.load",
    "releases": ".commands.releases",
    "Database": ".db",
    "ModelSpec": ".privacy.spec",
    "Job": ".commands.job",
    "run_job": ".commands.job",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "AnonymizeResult",
    "BadInput",
    "CheckResult",
    "CompareResult",
    "Composition",
    "Database",
    "Job",
    "LdivError",
    "LoadResult",
    "MetricsResult",
    "ModelSpec",
    "PrivacyViolation",
    "ReportResult",
    "RiskResult",
    "SuggestResult",
    "anonymize",
    "check",
    "compare",
    "compose",
    "load",
    "metrics",
    "publish",
    "releases",
    "report",
    "risk",
    "run_job",
    "suggest_l",
]
