"""``ldiv load``: a CSV or Parquet file into a new table of the working database, in one transaction."""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .catalog import output_ref
from .db import Database
from .errors import BadInput, LdivError
from .render import render


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


def _sniff_sep(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace") as fh:
        head = fh.readline()
    try:
        return csv.Sniffer().sniff(head, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def load(
    db: Any, file: str | Path, table: str, *, sep: str | None = None, replace: bool = False
) -> LoadResult:
    t0 = time.perf_counter()
    database = Database.open(db, mode="write")
    try:
        path = Path(file)
        if not path.exists():
            raise BadInput(f"file {path} does not exist")
        target = output_ref(table)
        if database.exists(target) and not replace:
            raise BadInput(f"table {target.display()} already exists", "pass --replace to overwrite it")
        is_parquet = path.suffix.lower() in (".parquet", ".pq")
        with database.transaction():
            if replace:
                database.run(render("catalog/drop_table.sql", target=target))
            try:
                if is_parquet:
                    database.run(render("catalog/load_parquet.sql", {"path": str(path)}, target=target))
                else:
                    delim = sep or _sniff_sep(path)
                    database.run(
                        render("catalog/load_csv.sql", {"path": str(path), "sep": delim}, target=target)
                    )
            except LdivError as exc:
                raise BadInput(
                    f"cannot load {path}: {exc.message.split(': ', 1)[-1]}",
                    "check the file format (CSV with a header row, or Parquet) and --sep",
                ) from None
        from .catalog import resolve_table

        t = resolve_table(database, target.display())
        rows = int(database.scalar(render("catalog/row_count.sql", source=t.ref)))
        return LoadResult(t.name, rows, [(c.name, c.data_type) for c in t.columns], time.perf_counter() - t0)
    finally:
        if database is not db:
            database.close()
