"""Shared helpers of the robustness suites: build a small census database, snapshot its catalog (tables,
row counts, an order-independent content hash of every table), and compare snapshots.

The snapshot reads the file through a read-only DuckDB connection of its own, so it sees exactly what a
later process would see. Of the run log (``ldiv.run``, ``ldiv.run_step``) only the columns are kept: a
refused command may record its failed run there.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from fixtures import census
from fixtures.hostile import HIERARCHIES as HOSTILE_HIERARCHIES
from fixtures.hostile import create_sql as hostile_create_sql

RUN_LOG = frozenset({("ldiv", "run"), ("ldiv", "run_step")})

# Names of the objects the base database holds (the generators draw names from these).
SOURCE = "census"
PLAIN = "payroll"  # a user table that nothing references: it must never be dropped
HOSTILE = "select"  # fixtures.hostile's table
RELEASE = "census_rel"  # a full-domain release of SOURCE
STREAM = "stream"  # a Decomposition+ stream of STREAM_SOURCE (tables stream_qid, stream_sa, ...)
STREAM_SOURCE = "arrivals"
BATCHES = ("batch1", "batch2")  # new rows for the stream, disjoint from STREAM_SOURCE and each other
STREAM_SA = ("occupation", "workclass")
QI = ("age", "sex", "race", "education")


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class TableState:
    rows: int
    content: str  # sum of row hashes and a hash of the column list
    columns: tuple[tuple[str, str], ...]


@dataclass
class Snapshot:
    tables: dict[tuple[str, str], TableState] = field(default_factory=dict)
    views: dict[tuple[str, str], str] = field(default_factory=dict)
    releases: dict[str, int] = field(default_factory=dict)  # release name -> newest release_id
    running: int = 0  # runs left status = 'running'

    def user_tables(self) -> dict[tuple[str, str], TableState]:
        return {k: v for k, v in self.tables.items() if k[0] not in ("ldiv", "ldiv_work")}

    def ldiv(self) -> dict[tuple[str, str], TableState]:
        return {k: v for k, v in self.tables.items() if k[0] == "ldiv"}


def _table_state(con: duckdb.DuckDBPyConnection, schema: str, name: str) -> TableState:
    ref = f"{quote(schema)}.{quote(name)}"
    cols = tuple(
        (str(n), str(t))
        for n, t in con.execute(
            "SELECT column_name, data_type FROM duckdb_columns() WHERE schema_name = ? AND table_name = ? "
            "AND database_name = current_database() ORDER BY column_index",
            [schema, name],
        ).fetchall()
    )
    row = con.execute(f"SELECT count(*), coalesce(sum(hash(t)::HUGEINT), 0) FROM {ref} AS t").fetchone()
    assert row is not None
    digest = hashlib.sha256(f"{row[1]}|{cols}".encode()).hexdigest()[:24]
    return TableState(int(row[0]), digest, cols)


def snapshot(path: str | Path) -> Snapshot:
    """Every table of the file's main database (content hash and row count), its views, the newest
    release per name and the number of runs left 'running'."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        snap = Snapshot()
        for schema, name in con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() "
            "WHERE database_name = current_database() AND NOT temporary ORDER BY ALL"
        ).fetchall():
            key = (str(schema), str(name))
            state = _table_state(con, *key)
            # the run log may grow; only its shape is compared (a replaced ldiv.run shows here)
            snap.tables[key] = TableState(-1, "", state.columns) if key in RUN_LOG else state
        for schema, name, sql in con.execute(
            "SELECT schema_name, view_name, sql FROM duckdb_views() "
            "WHERE database_name = current_database() AND NOT internal ORDER BY ALL"
        ).fetchall():
            snap.views[(str(schema), str(name))] = str(sql)
        if ("ldiv", "release") in snap.tables:
            for name, rid in con.execute(
                "SELECT name, max(release_id) FROM ldiv.release GROUP BY name"
            ).fetchall():
                snap.releases[str(name)] = int(rid)
        has_run = con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'ldiv' AND table_name = 'run' "
            "AND database_name = current_database()"
        ).fetchone()
        if has_run and has_run[0]:
            running = con.execute("SELECT count(*) FROM ldiv.run WHERE status = 'running'").fetchone()
            snap.running = int(running[0]) if running else 0
        return snap
    finally:
        con.close()


def diff(before: Snapshot, after: Snapshot, *, ignore: Iterable[tuple[str, str]] = ()) -> list[str]:
    """What changed between two snapshots (tables added, dropped, changed; views), minus ``ignore``."""
    skip = set(ignore)
    out: list[str] = []
    for key in sorted(set(before.tables) | set(after.tables)):
        if key in skip:
            continue
        a, b = before.tables.get(key), after.tables.get(key)
        name = ".".join(key)
        if a is None:
            out.append(f"table {name} was created ({b.rows if b else '?'} rows)")
        elif b is None:
            out.append(f"table {name} was dropped (had {a.rows} rows)")
        elif a != b:
            out.append(f"table {name} changed: {a.rows} -> {b.rows} rows, content {a.content} -> {b.content}")
    for key in sorted(set(before.views) | set(after.views)):
        if key not in skip and before.views.get(key) != after.views.get(key):
            out.append(f"view {'.'.join(key)} was created, dropped or changed")
    return out


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def copy_db(src: Path, dst: Path) -> Path:
    """Copy a closed database file (and a write-ahead log, if one was left)."""
    shutil.copyfile(src, dst)
    wal = src.with_name(src.name + ".wal")
    if wal.exists():
        shutil.copyfile(wal, dst.with_name(dst.name + ".wal"))
    return dst


# ---------------------------------------------------------------------------- the base database
@dataclass(frozen=True)
class BaseFiles:
    db: Path
    csv: Path  # a ';' CSV of census rows (loadable)
    hierarchies: Mapping[str, Path]  # column -> ARX hierarchy file of the census columns
    categories: Path  # value;category file for occupation
    workdir: Path


def _make_table(con: duckdb.DuckDBPyConnection, name: str, frame: Any) -> None:
    con.register("_frame", frame)
    con.execute(f"CREATE TABLE {quote(name)} AS SELECT * FROM _frame")
    con.unregister("_frame")


def build_base(
    workdir: Path, *, rows: int, seed: int = census.DEFAULT_SEED, stream_rows: int = 300
) -> BaseFiles:
    """A database file with: ``census`` (``rows`` rows, hierarchies for every column, occupation
    categories), ``payroll`` (a plain user table), the hostile-names table ``select``, a full-domain
    release ``census_rel``, and a Decomposition+ stream ``stream`` of ``arrivals`` with two batches of
    new rows (``batch1``, ``batch2``) waiting to be appended."""
    from ldiv_db import api, taxonomy
    from ldiv_db.db import Database

    workdir.mkdir(parents=True, exist_ok=True)
    files = census.write(workdir / "census_files", n=rows, seed=seed)
    path = workdir / "base.duckdb"
    frame = census.generate(rows + 3 * stream_rows, seed)
    db = Database.open(path)
    try:
        api.load(db, files["data"], SOURCE, sep=";")
        for col in census.COLUMNS:
            taxonomy.import_hierarchy(db, SOURCE, col, files[col])
        cats = workdir / "occupation_categories.csv"
        occupations = sorted({r[0] for r in census.hierarchies()["occupation"]})
        cats.write_text("".join(f"{v};{1 + i % 3}\n" for i, v in enumerate(occupations)), encoding="utf-8")
        taxonomy.import_categories(db, SOURCE, "occupation", cats)
        payroll = frame.iloc[:50][["age", "sex", "occupation"]].assign(salary=range(50))
        _make_table(db.con, PLAIN, payroll.reset_index(drop=True))
        for stmt in hostile_create_sql():
            db.con.execute(stmt)
        for col, hrows in HOSTILE_HIERARCHIES.items():
            f = workdir / f"hostile_{abs(hash(col))}.csv"
            f.write_text("\n".join(";".join(r) for r in hrows) + "\n", encoding="utf-8")
            taxonomy.import_hierarchy(db, HOSTILE, col, f)
        api.anonymize(
            db,
            SOURCE,
            list(QI[:2]),
            "occupation",
            algorithm="full-domain",
            l=2,
            output=RELEASE,
            levels={"age": 3, "sex": 0},
            suppression_limit="0.05",
            kl=False,
        )
        parts = [frame.iloc[rows + i * stream_rows : rows + (i + 1) * stream_rows] for i in range(3)]
        for name, part in zip((STREAM_SOURCE, *BATCHES), parts, strict=True):  # a person id: the stream's key
            _make_table(db.con, name, part.reset_index(drop=True).assign(person_id=part.index))
        for col in STREAM_SA[1:]:
            taxonomy.import_hierarchy(db, STREAM_SOURCE, col, files[col])
        api.anonymize(
            db,
            STREAM_SOURCE,
            list(QI[:2]),
            list(STREAM_SA),
            algorithm="decomposition",
            l=[3, 2],
            output=STREAM,
            kl=False,
            key="person_id",
        )
    finally:
        db.close()
    return BaseFiles(path, files["data"], {c: files[c] for c in census.COLUMNS}, cats, workdir)
