"""Database URLs: which engine a ``DB`` argument names, and how to show it without its password.

No driver is imported here, so every module may use these helpers (messages, ``ldiv.run`` records).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

_SCHEMES = ("postgresql://", "postgres://")
_USERINFO = re.compile(r"(?P<scheme>postgres(?:ql)?://)(?P<user>[^:@/]*)(?::[^@/]*)?@", re.IGNORECASE)


def is_postgres_url(target: str) -> bool:
    """``postgresql://...`` or ``postgres://...`` (any other ``DB`` is a DuckDB file path)."""
    return target.lower().startswith(_SCHEMES)


def is_spark_url(target: str) -> bool:
    """``spark://local[N]`` or ``spark://HOST:PORT`` (a Spark session; see :mod:`ldiv_db.db.spark`)."""
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
