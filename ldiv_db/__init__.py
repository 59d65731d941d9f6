"""ldiv_db: in-database l-diversity anonymization on DuckDB.

Public API (each accepts a database path, a duckdb connection or a :class:`Database`)::

    ldiv_db.check(db, table, qi, sa, model=..., l=...)      # privacy statistics and a model's verdict
    ldiv_db.anonymize(db, table, qi, sa, algorithm=..., l=..., output=...)
    ldiv_db.metrics(db, source, release, qi, sa)
    ldiv_db.suggest_l(db, table, sa)
    ldiv_db.load(db, file, table)
    ldiv_db.run_job(path)                                   # an ETL job file (TOML)
"""

from __future__ import annotations

from . import metrics as _metrics_package  # noqa: F401  (bind the subpackage before the function shadows it)
from .api import (
    AnonymizeResult,
    CheckResult,
    LoadResult,
    MetricsResult,
    SuggestResult,
    anonymize,
    check,
    load,
    metrics,
    releases,
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
    "Database",
    "Job",
    "LdivError",
    "LoadResult",
    "MetricsResult",
    "PrivacyViolation",
    "SuggestResult",
    "anonymize",
    "check",
    "load",
    "metrics",
    "releases",
    "run_job",
    "suggest_l",
]
