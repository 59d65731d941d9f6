"""Database URLs: which engine a ``DB`` argument names, and how to show it without its password; and
whether a path given as ``DB`` is a DuckDB file.

No driver is imported here, so every module may use these helpers (messages, ``ldiv.run`` records).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..errors import BadInput

_SCHEMES = ("postgresql://", "postgres://")
_USERINFO = re.compile(r"(?P<scheme>postgres(?:ql)?://)(?P<user>[^:@/]*)(?::[^@/]*)?@", re.IGNORECASE)


def is_postgres_url(target: str) -> bool:
    """``postgresql://...`` or ``postgres://...`` (any other ``DB`` is a DuckDB file path)."""
    return target.lower().startswith(_SCHEMES)


def is_spark_url(target: str) -> bool:
    """``spark://local[N]`` or ``spark://HOST:PORT`` (a Spark session; see :mod:`ldiv_db.db.spark.engine`)."""
    return target.lower().startswith("spark://")


def scrub(text: str, secret: str | None = None) -> str:
    """``text`` with the password of every PostgreSQL URL in it removed (``user:***@`` becomes ``user@``),
    and every occurrence of ``secret`` (the password itself, as the driver may echo it) masked."""
    out = _USERINFO.sub(lambda m: f"{m.group('scheme')}{m.group('user')}@", text)
    if secret:
        out = out.replace(secret, "***")
    return out


def url_password(url: str) -> str | None:
    """The password written in the URL, if any (else libpq takes PGPASSWORD or ~/.pgpass)."""
    parts = urlsplit(url)
    return unquote(parts.password) if parts.password else None


def display_url(url: str) -> str:
    """The URL as shown to people and recorded: without the password and without query options."""
    parts = urlsplit(scrub(url))
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


def check_database_file(path: str, what: str) -> None:
    """An existing path given as a database (DB or --attach) is a DuckDB file: not a folder, not a CSV,
    Parquet or other file (DuckDB's own message about those is misleading). A missing or empty file
    passes (a write command creates the database)."""
    p = Path(path)
    if p.is_dir():
        raise BadInput(f"{what} {path} is a directory", "give the path of a DuckDB database file")
    if not p.exists() or not p.is_file():
        return
    try:
        with p.open("rb") as f:
            head = f.read(12)
    except OSError as exc:
        raise BadInput(
            f"cannot read {what} {path}: {exc.strerror or exc}", "check the file's permissions"
        ) from None
    if head and head[8:12] != b"DUCK":
        kind = "a Parquet file" if head.startswith(b"PAR1") else "not a DuckDB database file"
        raise BadInput(
            f"{what} {path} is {kind}",
            "give a DuckDB database file; to use a CSV or Parquet file, load it first: "
            "ldiv load DB FILE --table T",
        )
