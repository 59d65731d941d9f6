"""Reading the text files a user names (hierarchies, categories, thresholds, job files): one place that
turns every way a file can be unreadable into a clear error naming the file, what it should be and the
fix — a missing path, a directory, no permission, bytes that are not UTF-8 (binary, UTF-16, Latin-1)."""

from __future__ import annotations

from pathlib import Path

from ..errors import BadInput


def read_text(path: str | Path, what: str, hint: str, *, error: type[BadInput] = BadInput) -> str:
    """The whole file as text (UTF-8, a byte-order mark skipped). ``what``: "categories file";
    ``hint``: what the file should hold."""
    p = Path(path)
    if str(path).strip() == "":
        raise error(f"{what}: the path is empty", hint)
    if not p.exists():
        raise error(f"{what} {p} does not exist", f"check the path; {hint}")
    if p.is_dir():
        raise error(f"{what} {p} is a directory", f"give the path of the file; {hint}")
    if not p.is_file():
        raise error(f"{what} {p} is not a regular file", f"give the path of the file; {hint}")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise error(
            f"cannot read {what} {p}: {exc.strerror or exc}", "check the file's permissions"
        ) from None
    if b"\x00" in data[:4096]:
        raise error(
            f"{what} {p} holds NUL bytes: it is binary or UTF-16, not UTF-8 text",
            f"save it as UTF-8 text; {hint}",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(
            f"{what} {p} is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line})",
            f"save it as UTF-8 (a Latin-1 or Windows file needs converting); {hint}",
        ) from None
