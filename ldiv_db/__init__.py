"""ldiv_db: in-database l-diversity anonymization on DuckDB.

Public API (each accepts a database path, a duckdb connection or a :class:`Database`)::

    ldiv_db.check(db, table, qi, sa, model=..., l=...)      # privacy statistics and a model's verdict
    ldiv_db.anonymize(db, table, qi, sa, algorithm=..., l=..., output=...)
    ldiv_db.metrics(db, source, release, qi, sa)
    ldiv_db.suggest_l(db, table, sa)
    ldiv_db.report(db, releases, html="report.html")         # the offline HTML report of releases
    ldiv_db.compare(db, table, qi, sa, l, html="compare.html")  # run the algorithms, one page to choose
    ldiv_db.load(db, file, table)
    ldiv_db.run_job(path)                                   # an ETL job file (TOML)
"""

from __future__ import annotations

from . import metrics as _metrics_package  # noqa: F401  (bind the subpackage before the function shadows it)
from . import report as _report_package  # noqa: F401  (likewise)
from .api import (
    AnonymizeResult,
    CheckResult,
    CompareResult,
    LoadResult,
    MetricsResult,
    ReportResult,
    SuggestResult,
    anonymize,
    check,
    compare,
    load,
    metrics,
    releases,
    report,
    suggest_l,
)
from .db import Database
from .errors import BadInput, LdivError, PrivacyViolation
from .job import Job, run_job

__version__ = "0.1.0"

__all__ = [
    "AnonymizeResult",
    "BadInput",
    "CheckResult",
    "CompareResult",
    "Database",
    "Job",
    "LdivError",
    "LoadResult",
    "MetricsResult",
    "PrivacyViolation",
    "ReportResult",
    "SuggestResult",
    "anonymize",
    "check",
    "compare",
    "load",
    "metrics",
    "releases",
    "report",
    "run_job",
    "suggest_l",
]
