"""Locate the shipped SQL templates and migrations: inside the wheel (``ldiv_db/_sql``,
``ldiv_db/_migrations``) or, in a source checkout, the top-level ``sql/`` and ``migrations/``."""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parents[1]  # ldiv_db/


def _find(packaged: str, checkout: str) -> Path:
    for candidate in (_PKG / packaged, _PKG.parent / checkout):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"ldiv_db resources not found: neither {_PKG / packaged} nor {_PKG.parent / checkout}"
    )


def sql_dir() -> Path:
    return _find("_sql", "sql")


def migrations_dir() -> Path:
    return _find("_migrations", "migrations")
