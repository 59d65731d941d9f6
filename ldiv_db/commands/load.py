"""``ldiv load``: a CSV or Parquet file into a new table of the working database, in one transaction.

Everything happens inside the transaction (the replaced table dropped, the new one created and
described, the checks on it): on any error nothing is left behind and a replaced table is intact.
What the target may be is decided by :mod:`ldiv_db.core.ownership`.
"""

from __future__ import annotations

import csv
import glob
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import ownership
from ..core.catalog import output_ref, table_at
from ..db import Database
from ..errors import BadInput, LdivError
from ..sqlgen.render import TableRef, render
from ..util.frame_convert import is_frame

SEPARATORS = (",", ";", "\t", "|")
DIAGNOSE_LINES = 1_000_000


@dataclass(frozen=True)
class LoadResult:
    table: str
    rows: int
    columns: list[tuple[str, str]]
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "rows": self.rows,
            "columns": [{"name": n, "type": t} for n, t in self.columns],
            "seconds": round(self.seconds, 4),
        }

    def render_text(self) -> str:
        cols = ", ".join(f"{n} {t}" for n, t in self.columns)
        return f"loaded {self.rows} rows into {self.table} in {self.seconds:.2f} s\n  columns: {cols}"


def _show(sep: str) -> str:
    return "'\\t'" if sep == "\t" else repr(sep)


def _sniff_sep(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace") as fh:
        head = fh.readline()
    try:
        return csv.Sniffer().sniff(head, delimiters="".join(SEPARATORS)).delimiter
    except csv.Error:
        return ","


def _check_file(path: Path) -> None:
    if not path.exists():
        raise BadInput(f"file {path} does not exist")
    if path.is_dir():
        raise BadInput(f"{path} is a directory, not a file", "give a CSV (with a header row) or Parquet file")
    try:
        with path.open("rb") as fh:
            fh.read(1)
    except OSError as exc:
        raise BadInput(
            f"cannot read {path}: {exc.strerror or exc}", "check the path and its permissions"
        ) from None


def diagnose_csv(path: Path, sep: str) -> str | None:
    """The first line that keeps ``path`` from loading with separator ``sep`` and the likely cause."""
    header_fields: int | None = None
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if number > DIAGNOSE_LINES:
                break
            if b"\x00" in raw:
                return (
                    f"line {number} holds a NUL byte: the file is binary (not a CSV file) or UTF-16 encoded"
                )
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                byte = raw[exc.start : exc.start + 1].hex()
                return (
                    f"line {number} is not UTF-8 (byte 0x{byte} at position {exc.start + 1}): the encoding is "
                    "likely Latin-1 or Windows-1252; convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8)"
                )
            if line.count('"') % 2:
                return (
                    f'line {number} has an unbalanced quote ("): a quoted value is not closed, or a value '
                    "contains a quote that is not doubled"
                )
            fields = len(next(csv.reader([line], delimiter=sep), []))
            if header_fields is None:
                header_fields = fields
            elif fields != header_fields and line.strip():
                return (
                    f"line {number} has {fields} fields where the header has {header_fields} (separator "
                    f"{_show(sep)}): a wrong separator (--sep), or a value holding the separator unquoted"
                )
    return None


def _csv_error(path: Path, sep: str, exc: LdivError) -> BadInput:
    cause = diagnose_csv(path, sep)
    full = str(exc.__cause__ or exc.message)
    m = re.search(r"[Ll]ine:?\s*(\d+)", full)
    where = f" (reported at line {m.group(1)})" if m and cause is None else ""
    first = exc.message.split(": ", 1)[-1]
    return BadInput(
        f"cannot load {path} as CSV with separator {_show(sep)}: {cause or first}{where}",
        'check the separator (--sep), the encoding (UTF-8) and the quoting ("...", a quote inside doubled)',
    )


def _one_column_check(path: Path, sep: str, columns: list[str]) -> None:
    """A one-column load whose header holds another common separator is a wrong --sep, not data."""
    if len(columns) != 1:
        return
    others = [s for s in SEPARATORS if s != sep and s in columns[0]]
    if others:
        raise BadInput(
            f"{path} loads as one column named {columns[0]!r} with separator {_show(sep)}, but that header "
            f"contains {_show(others[0])}: the separator is probably {_show(others[0])}; nothing was loaded",
            f"pass --sep {_show(others[0])}",
        )


def parse_sep(sep: str | None) -> str | None:
    """``--sep``: one character (``\\t`` or ``tab`` for a tab), or None to detect it."""
    if sep is None:
        return None
    if sep in ("\\t", "tab", "TAB"):
        return "\t"
    if len(sep) != 1 or sep in ('"', "\n", "\r"):
        raise BadInput(
            f"--sep must be one character, got {sep!r}",
            "e.g. --sep ';' or --sep ',' (--sep tab for a tab), or leave it out to detect it",
        )
    return sep


def load(db: Any, file: Any, table: str, *, sep: str | None = None, replace: bool = False) -> LoadResult:
    """``file`` (a CSV or Parquet file, a glob or a Parquet dataset folder, or a pandas/Polars/Arrow
    table) into the new table ``table`` of ``db``."""
    t0 = time.perf_counter()
    sep = parse_sep(sep)
    with Database.writing(db) as database:
        if is_frame(file):
            target = ownership.check_load_target(database, output_ref(table), replace=replace)
            return load_frame(database, file, target, replace=replace, t0=t0)
        first, pattern = files_of(str(file))
        target = ownership.check_load_target(database, output_ref(table), replace=replace)
        return load_table(database, first, target, sep=sep, replace=replace, t0=t0, pattern=pattern)


GLOB_CHARS = ("*", "?", "[")


def files_of(spelled: str) -> tuple[Path, str | None]:
    """What ``ldiv load`` reads: a file (``None``: read it alone), a glob (``data/*.parquet``,
    ``logs/**/*.csv``) or a Parquet dataset folder (every ``*.parquet`` under it, hive partitions read as
    columns). Returns the first file (its format and separator decide) and the pattern DuckDB reads; a
    pattern that matches nothing is refused."""
    path = Path(spelled)
    if path.is_dir():
        found = sorted(path.rglob("*.parquet"))
        if not found:
            raise BadInput(
                f"{path} is a directory without Parquet files", "give a CSV or Parquet file, or a glob"
            )
        return found[0], str(path / "**" / "*.parquet")
    if any(c in spelled for c in GLOB_CHARS):
        matches = sorted(Path(p) for p in glob.glob(spelled, recursive=True) if Path(p).is_file())
        if not matches:
            raise BadInput(
                f"{spelled} matches no file", "check the pattern (quote it so the shell does not expand it)"
            )
        kinds = {m.suffix.lower() in (".parquet", ".pq") for m in matches}
        if len(kinds) > 1:
            raise BadInput(f"{spelled} matches both Parquet and other files", "match one format")
        return matches[0], spelled
    _check_file(path)
    return path, None


def load_table(
    database: Database,
    path: Path,
    target: TableRef,
    *,
    sep: str | None,
    replace: bool,
    t0: float,
    pattern: str | None = None,
) -> LoadResult:
    """Load ``path`` (or every file ``pattern`` matches, ``path`` the first of them) into ``target``
    (checked by :func:`ownership.check_load_target`) in one transaction (the caller's, if one is open).
    DuckDB reads a pattern's files in name order: the table's row ids follow it."""
    _check_file(path)
    is_parquet = path.suffix.lower() in (".parquet", ".pq")
    delim = sep or ("," if is_parquet else _sniff_sep(path))
    with database.transaction():
        if replace:
            ownership.drop_for_load(database, target)
        try:
            source = pattern or str(path)
            if is_parquet:
                q = render("catalog/load_parquet.sql", {"path": source}, target=target)
            else:
                q = render("catalog/load_csv.sql", {"path": source, "sep": delim}, target=target)
            written = database.load_file(q, target)
        except LdivError as exc:
            if not is_parquet:
                raise _csv_error(path, delim, exc) from None
            raise BadInput(
                f"cannot load {path}: {exc.message.split(': ', 1)[-1]}",
                "check the file format (CSV with a header row, or Parquet) and --sep",
            ) from None
        t = table_at(database, target)
        if not is_parquet:
            _one_column_check(path, delim, [c.name for c in t.columns])
        rows = (
            written
            if written is not None
            else int(database.scalar(render("catalog/row_count.sql", source=t.ref)))
        )
    return LoadResult(t.name, rows, [(c.name, c.data_type) for c in t.columns], time.perf_counter() - t0)


def load_frame(database: Database, frame: Any, target: TableRef, *, replace: bool, t0: float) -> LoadResult:
    """A pandas/Polars/Arrow table into ``target``, its row ids the frame's row positions."""
    if type(frame).__name__ == "LazyFrame":
        frame = frame.collect()
    with database.transaction():
        if replace:
            ownership.drop_for_load(database, target)
        database.load_frame(frame, target)
        t = table_at(database, target)
        rows = int(database.scalar(render("catalog/row_count.sql", source=t.ref)))
    return LoadResult(t.name, rows, [(c.name, c.data_type) for c in t.columns], time.perf_counter() - t0)
