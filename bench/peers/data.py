"""The peers suite's inputs beyond Adult, made once into ~/.cache/ldiv_db/peers (never the repository),
as ';'-separated CSV files that ARX, pycanon and ldiv_db each read:

* adult_1m_s7.csv: Adult amplified to 1,000,000 rows by bench/amplify.py, seed 7, the 8 QIs randomized;
* ihis_shaped_s7.csv: an IHIS-shaped table. IHIS itself is not redistributable (only its hierarchies are
  in ../shared/datasets/ihis), so this is 1,193,504 rows (IHIS's size in ARX's benchmark) over IHIS's
  columns, each value drawn from its hierarchy's leaves, skewed towards the first leaves
  (index = ⌊n · u²⌋, u uniform from DuckDB's hash of seed, row and column) so that classes are uneven as in
  survey data; SEX, QUARTER and REGION uniform. SA EDUC (26 values), the 8 other columns QIs.

Bench code may use duckdb directly (DESIGN §3 restricts only the library).
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ROOT.parent / "shared" / "datasets"
CACHE = Path(os.environ.get("LDIV_PEERS_CACHE", Path.home() / ".cache" / "ldiv_db" / "peers"))

ADULT_QI = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "salary-class",
]
IHIS_QI = ["YEAR", "QUARTER", "REGION", "PERNUM", "AGE", "MARSTAT", "SEX", "RACEA"]
IHIS_SA = "EDUC"
IHIS_ROWS = 1_193_504
UNIFORM = {"SEX", "QUARTER", "REGION"}


def adult_million(seed: int = 7) -> Path:
    """Adult amplified to 1M rows (8 QIs randomized) as CSV; made once."""
    from bench.amplify import amplify, load_adult

    out = CACHE / f"adult_1m_s{seed}.csv"
    if out.exists():
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    con = _connect()
    load_adult(con, DATASETS / "adult" / "adult.csv", "adult")
    amplify(con, "adult", "adult_1m", 1_000_000, seed=seed, qi=ADULT_QI)
    _write(con, "adult_1m", out)
    return out


def ihis_shaped(seed: int = 7, rows: int = IHIS_ROWS) -> Path:
    """The IHIS-shaped table (module docstring) as CSV; made once."""
    out = CACHE / f"ihis_shaped_s{seed}.csv"
    if out.exists():
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    con = _connect()
    columns = [*IHIS_QI, IHIS_SA]
    picks = []
    for j, col in enumerate(columns):
        leaves = [line.split(";")[0] for line in _lines(DATASETS / "ihis" / f"ihis_hierarchy_{col}.csv")]
        con.execute(f"CREATE TEMP TABLE leaves{j} (idx BIGINT, v VARCHAR)")
        con.executemany(f"INSERT INTO leaves{j} VALUES (?, ?)", list(enumerate(leaves)))
        u = f"(hash($seed::BIGINT, r.i, {j}::BIGINT) % 1000000007)::DOUBLE / 1000000007"
        power = 1 if col in UNIFORM else 2
        picks.append((col, j, f"least(floor({len(leaves)} * pow({u}, {power}))::BIGINT, {len(leaves) - 1})"))
    idx = ", ".join(f"{expr} AS x{j}" for _, j, expr in picks)
    outs = ", ".join(f'l{j}.v AS "{col}"' for col, j, _ in picks)
    joins = " ".join(f"JOIN leaves{j} AS l{j} ON l{j}.idx = p.x{j}" for _, j, _ in picks)
    con.execute(
        f"CREATE TABLE ihis AS WITH p AS (SELECT r.i, {idx} FROM range($rows) AS r(i)) "
        f"SELECT {outs} FROM p {joins} ORDER BY p.i",
        {"seed": seed, "rows": rows},
    )
    _write(con, "ihis", out)
    return out


def _connect() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    return con


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line]


def _write(con: duckdb.DuckDBPyConnection, table: str, out: Path) -> None:
    """Written beside, then renamed: a run stopped half-way leaves no partial file under the final name."""
    part = out.with_suffix(".part")
    con.execute(f"COPY {table} TO '{part}' (HEADER, DELIMITER ';', QUOTE '')")
    part.rename(out)
