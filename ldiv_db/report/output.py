"""Writing a page: atomically (a temporary file renamed into place), so a failed run leaves no half page."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from ..errors import BadInput


def write_page(path: str | Path, html: str) -> str:
    """Write ``html`` to ``path`` (parent folders created); return the absolute path."""
    target = Path(path).expanduser().resolve()
    if target.is_dir():
        raise BadInput(f"{target} is a folder", "give the HTML file to write, e.g. --html report.html")
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")  # a plain file: the umask applies
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(html, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise BadInput(
            f"cannot write {target}: {exc.strerror}", "choose a writable path for --html"
        ) from None
    return str(target)
