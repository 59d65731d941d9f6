"""The PostgreSQL engine's messages: a driver error's first line with the password scrubbed, and the hint
for a refused privilege or a failed connection (``ldiv_db/db/postgres/engine.py`` raises them)."""

from __future__ import annotations

from ...errors import BadInput
from ..urls import scrub


def error_message(exc: BaseException, secret: str | None) -> str:
    diag = getattr(exc, "diag", None)
    primary = getattr(diag, "message_primary", None) if diag is not None else None
    text = (primary or str(exc)).strip().splitlines()
    return scrub(text[0] if text else type(exc).__name__, secret)


def privilege_hint(text: str) -> str:
    low = text.lower()
    if "temporary" in low:
        return (
            "a command keeps its work tables in the session's temporary schema: GRANT TEMP ON DATABASE db "
            "TO role (PostgreSQL grants it to every role by default)"
        )
    if "for database" in low:
        return (
            "the first write needs CREATE on the database (ldiv_db creates the schemas ldiv and main once): "
            "GRANT CREATE ON DATABASE db TO role; after it, USAGE, CREATE on both suffice (GRANT USAGE, "
            "CREATE ON SCHEMA ldiv, main TO role: a role that cannot use ldiv tries to create it); reads "
            "need no write privilege"
        )
    if "for schema" in low:
        return (
            "a write needs USAGE, CREATE on the schemas ldiv and main and on the schema of its --output: "
            "GRANT USAGE, CREATE ON SCHEMA ldiv, main TO role"
        )
    if "for sequence" in low:
        return "a write numbers its runs and releases: GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ldiv TO role"
    if "table" in low or "relation" in low:
        return (
            "the role needs SELECT on the source table and, to write, SELECT, INSERT, UPDATE, DELETE on the "
            "tables of ldiv: GRANT SELECT ON TABLE t TO role; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL "
            "TABLES IN SCHEMA ldiv TO role"
        )
    return "grant the role the privilege named in the message"


def connect_error(where: str, text: str) -> BadInput:
    low = text.lower()
    if "password authentication failed" in low or "no password supplied" in low:
        return BadInput(
            f"PostgreSQL at {where} refused the login: {text}",
            "check the user and its password (in the URL, PGPASSWORD or ~/.pgpass)",
        )
    if "does not exist" in low and "database" in low:
        return BadInput(f"cannot open {where}: {text}", "create the database first or fix its name")
    if "connection refused" in low or "could not" in low or "timeout" in low or "resolve" in low:
        return BadInput(
            f"cannot reach the PostgreSQL server at {where}: {text}",
            "check that the server runs and that host and port are right",
        )
    return BadInput(f"cannot connect to {where}: {text}", "check the URL postgresql://user@host:port/dbname")
