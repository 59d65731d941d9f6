"""Writing a page: the one rule for an HTML output path (checked before any work, and again when the page
is written) and the write itself, atomic (a temporary file renamed into place), so a failed run leaves no
half page.

The rule: ``--html`` names a new file in an existing folder, or an earlier HTML page (or an empty file)
that it replaces. Anything else — an empty path, a folder, a missing folder, a database file (also the
one being reported on), any other file that holds data — is refused, so a page never replaces the user's
data."""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from ..db.engine_errors import environment_error
from ..errors import BadInput

HINT = "give a new file (or an earlier page) in an existing folder, e.g. --html report.html"
_PAGE_STARTS = (b"<!doctype html", b"<html")


def _what(head: bytes) -> str:
    if head[8:12] == b"DUCK":
        return "a DuckDB database"
    if head.startswith(b"PAR1"):
        return "a Parquet file"
    return "a file that is not an HTML page"


def check_page_path(path: str | Path) -> Path:
    """The absolute path the page will be written to, or a clear refusal (the module's rule)."""
    if str(path).strip() == "":
        raise BadInput("the --html path is empty", HINT)
    target = Path(path).expanduser().resolve()
    if target.is_dir():
        raise BadInput(f"{target} is a folder", "give the HTML file to write, e.g. --html report.html")
    if not target.parent.is_dir():
        raise BadInput(
            f"cannot write {target}: the folder {target.parent} does not exist",
            "create the folder first, or choose a path in an existing folder",
        )
    if target.exists():
        if not target.is_file():
            raise BadInput(f"{target} is not a regular file", HINT)
        try:
            with target.open("rb") as f:
                head = f.read(512)
        except OSError as exc:
            raise BadInput(f"cannot read {target}: {exc.strerror or exc}", HINT) from None
        if head.strip() and not head.lstrip(b"\xef\xbb\xbf \t\r\n").lower().startswith(_PAGE_STARTS):
            raise BadInput(
                f"{target} already exists and is {_what(head)}: --html replaces only an earlier HTML page",
                HINT,
            )
    return target


def write_page(path: str | Path, html: str) -> str:
    """Write ``html`` to ``path`` (checked by :func:`check_page_path`); return the absolute path."""
    target = check_page_path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")  # a plain file: the umask applies
    try:
        tmp.write_text(html, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)

        full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
        raise (environment_error(exc, str(target)) if full else None) or BadInput(
            f"cannot write {target}: {exc.strerror}", "choose a writable path for --html"
        ) from None
    return str(target)
