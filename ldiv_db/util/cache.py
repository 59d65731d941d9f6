"""The user's cache folders of ldiv_db (``$XDG_CACHE_HOME/ldiv_db/<name>`` or ``~/.cache/ldiv_db/<name>``),
each switched by its own environment variable: unset or ``on``: the default folder; ``off``: none; any
other value: that folder. The compiled SQL templates and Spark's class archive live there."""

from __future__ import annotations

import os
from pathlib import Path

_OFF = ("off", "0", "false", "no")
_ON = ("on", "1", "true", "yes")


def cache_folder(env: str, name: str) -> Path | None:
    """The folder ``name`` of ldiv_db's cache as the variable ``env`` sets it, or None (``env=off``).
    ``Path.home()`` raises RuntimeError where there is no home directory: the caller decides."""
    given = os.environ.get(env, "").strip()
    if given.lower() in _OFF:
        return None
    if given and given.lower() not in _ON:
        return Path(given).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ldiv_db" / name
