"""The amplified Adult dataset of the l+-Optimize scalability test, built inside DuckDB.

Paper rule (Liu & Wang, ICDE 2010, §VIII-C-4 "Amplifying the Size of the Dataset"): "we amplified
the size of the dataset by inserting α 'variants' of each original record into the Adult dataset.
A variant of an original record t was created by randomly selecting q attributes from QI, with q
being uniformly distributed in the range [1, |QI|], and replacing t's value on each selected
attribute with a value randomly drawn from the attribute domain." Fig. 9(g) runs 50K..1000K rows.

What this module does (two small temp tables, then one ``CREATE TABLE … AS`` statement):

* the target holds the N source rows unchanged (source order), then V = n_rows − N variants;
  variant i (0-based) copies source row i mod N, so every record gets ⌊V/N⌋ or ⌈V/N⌉ variants;
* q_i = 1 + h(i, −1) mod |QI|, uniform on [1, |QI|];
* the q_i attributes with the smallest keys h(i, j) are replaced: a uniformly random q-subset;
* attribute j's new value is value number h(i, |QI| + j) mod |domain_j| of the column's distinct
  values in ascending order, i.e. uniform over the domain;
* every non-QI column (occupation = the SA, salary-class = the class) is copied unchanged.

h(i, k) = DuckDB ``hash(seed, i, k)`` (64-bit). It is deterministic for a given seed and DuckDB
version, independent of the thread count, so the same seed rebuilds the same table.

Deviations from the paper, all deliberate:

1. Source: ARX's adult.csv (30,162 rows after removing missing values), not the paper's 45,222-row
   version, and "α variants of each record" becomes "fill up to exactly n_rows", so α is ⌊V/N⌋ or
   ⌈V/N⌉ (32 or 33 for 1,000,000 rows) instead of one integer.
2. "The attribute domain" = the distinct values of the column in the source table (Table II's domain
   sizes are the data's, e.g. Age 74), drawn uniformly, not weighted by frequency. A drawn value may
   equal the original one; the paper does not exclude that.
3. QI = the paper's seven (Table II): age, education, native-country, workclass, marital-status,
   sex, race. ARX's column names are used.

Bench code may use duckdb directly (DESIGN §3 restricts only the library).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import duckdb

ADULT_QI: tuple[str, ...] = (
    "age",
    "education",
    "native-country",
    "workclass",
    "marital-status",
    "sex",
    "race",
)
ADULT_SA = "occupation"
ADULT_CLASS = "salary-class"


@dataclass(frozen=True)
class AmplifyStats:
    source_rows: int
    target_rows: int
    variants: int
    seconds: float


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    rel = con.sql(f"SELECT * FROM {_ident(table)} LIMIT 0")
    return [d[0] for d in rel.description]


_SRC = "__amplify_src"


def _dom(j: int) -> str:
    return f"__amplify_dom{j}"


def prepare_sql(source_table: str, qi: Sequence[str]) -> list[str]:
    """Temp tables: the source numbered in rowid order, and each QI domain numbered in value order."""
    stmts = [
        f"CREATE OR REPLACE TEMP TABLE {_SRC} AS "
        f"SELECT (row_number() OVER (ORDER BY rowid) - 1)::BIGINT AS __amp_i, * FROM {_ident(source_table)}"
    ]
    for j, c in enumerate(qi):
        stmts.append(
            f"CREATE OR REPLACE TEMP TABLE {_dom(j)} AS "
            f"SELECT (row_number() OVER (ORDER BY v) - 1)::UBIGINT AS idx, v "
            f"FROM (SELECT DISTINCT {_ident(c)} AS v FROM {_SRC} WHERE {_ident(c)} IS NOT NULL)"
        )
    return stmts


def amplify_sql(
    target_table: str, columns: Sequence[str], qi: Sequence[str], domain_sizes: Sequence[int]
) -> str:
    """The statement that builds the amplified table from the temp tables of ``prepare_sql``.

    Parameters: $seed, $n_src, $n_var. Variant i replaces attribute j iff fewer than q_i of the
    other attributes have a smaller key hash(seed, i, j) (a uniform random q_i-subset), by the
    domain value number hash(seed, i, |QI| + j) mod |domain_j|.
    """
    d = len(qi)

    def h(k: str) -> str:
        return f"hash($seed::BIGINT, v.i, ({k})::BIGINT)"

    def rank(j: int) -> str:
        return " + ".join(f"(__amp_k{m} < __amp_k{j})::INTEGER" for m in range(d) if m != j) or "0"

    keys = ", ".join(f"{h(str(j))} AS __amp_k{j}" for j in range(d))
    picks = ", ".join(
        f"CASE WHEN {rank(j)} < __amp_q THEN {h(str(d + j))} % {int(size)}::UBIGINT END AS __amp_x{j}"
        for j, size in enumerate(domain_sizes)
    )
    qi_index = {c: j for j, c in enumerate(qi)}
    outs, joins = [], []
    for c in columns:
        if c in qi_index:
            j = qi_index[c]
            outs.append(f"CASE WHEN w.__amp_x{j} IS NULL THEN w.{_ident(c)} ELSE m{j}.v END AS {_ident(c)}")
            joins.append(f"LEFT JOIN {_dom(j)} AS m{j} ON m{j}.idx = w.__amp_x{j}")
        else:
            outs.append(f"w.{_ident(c)}")
    col_list = ", ".join(_ident(c) for c in columns)
    nl = "\n    "
    return f"""
CREATE OR REPLACE TABLE {_ident(target_table)} AS
WITH variant AS (
    SELECT v.i AS __amp_k, s.*, 1 + (hash($seed::BIGINT, v.i, (-1)::BIGINT) % {d})::INTEGER AS __amp_q,
           {keys},
           {picks}
    FROM range($n_var) AS v(i)
    JOIN {_SRC} AS s ON s.__amp_i = v.i % $n_src
),
amplified AS (
    SELECT 0 AS __amp_part, __amp_i AS __amp_k, {col_list} FROM {_SRC}
    UNION ALL
    SELECT 1 AS __amp_part, w.__amp_k, {", ".join(outs)}
    FROM variant AS w
    {nl.join(joins)}
)
SELECT {col_list} FROM amplified ORDER BY __amp_part, __amp_k
"""


def amplify(
    con: duckdb.DuckDBPyConnection,
    source_table: str,
    target_table: str,
    n_rows: int = 1_000_000,
    seed: int = 7,
    qi: Sequence[str] = ADULT_QI,
) -> AmplifyStats:
    """Build ``target_table`` = the source rows followed by seeded QI-randomized variants, n_rows in all.

    ``source_table`` must be a base table (its ``rowid`` fixes the row order). Columns not in ``qi``
    (SA, class) are copied unchanged. Follows l+-Optimize §VIII-C-4; see the module docstring.
    """
    columns = _columns(con, source_table)
    if not qi:
        raise ValueError("qi must name at least one column")
    missing = [c for c in qi if c not in columns]
    if missing:
        raise ValueError(f"QI columns {missing} are not in {source_table!r}; its columns are {columns}")
    row = con.execute(f"SELECT count(*) FROM {_ident(source_table)}").fetchone()
    n_src = int(row[0]) if row else 0
    if n_src == 0:
        raise ValueError(f"source table {source_table!r} is empty")
    if n_rows < n_src:
        raise ValueError(f"n_rows={n_rows} is smaller than the source ({n_src} rows)")
    n_var = n_rows - n_src
    t0 = time.perf_counter()
    try:
        for stmt in prepare_sql(source_table, qi):
            try:
                con.execute(stmt)
            except duckdb.BinderException as exc:
                raise ValueError(
                    f"{source_table!r} must be a base table (its rowid fixes the row order): {exc}"
                ) from exc
        sizes = []
        for j, c in enumerate(qi):
            r = con.execute(f"SELECT count(*) FROM {_dom(j)}").fetchone()
            size = int(r[0]) if r else 0
            if size == 0:
                raise ValueError(f"QI column {c!r} has no non-NULL value to draw from")
            sizes.append(size)
        con.execute(
            amplify_sql(target_table, columns, qi, sizes),
            {"seed": seed, "n_src": n_src, "n_var": n_var},
        )
    finally:
        con.execute(f"DROP TABLE IF EXISTS {_SRC}")
        for j in range(len(qi)):
            con.execute(f"DROP TABLE IF EXISTS {_dom(j)}")
    seconds = time.perf_counter() - t0
    return AmplifyStats(source_rows=n_src, target_rows=n_rows, variants=n_var, seconds=seconds)


def load_adult(con: duckdb.DuckDBPyConnection, csv_path: str | Path, table: str = "adult") -> int:
    """Load ARX's adult.csv (';', header) into ``table`` in file order; returns the row count."""
    con.execute(
        f"CREATE OR REPLACE TABLE {_ident(table)} AS "
        "SELECT * FROM read_csv($path, delim=';', header=true, auto_detect=true)",
        {"path": str(csv_path)},
    )
    row = con.execute(f"SELECT count(*) FROM {_ident(table)}").fetchone()
    return int(row[0]) if row else 0


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: KiB


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.amplify",
        description="Amplify Adult to n rows with seeded QI variants (l+-Optimize §VIII-C-4).",
    )
    parser.add_argument("--adult", required=True, type=Path, help="ARX adult.csv (';' separated)")
    parser.add_argument("--out", required=True, type=Path, help="DuckDB database file to write")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--source-table", default="adult")
    parser.add_argument("--table", default="adult_1m", help="name of the amplified table")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    con = duckdb.connect(str(args.out))
    try:
        n_src = load_adult(con, args.adult, args.source_table)
        t_load = time.perf_counter() - t0
        stats = amplify(con, args.source_table, args.table, n_rows=args.rows, seed=args.seed)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    report = {
        **asdict(stats),
        "source_rows": n_src,
        "load_seconds": round(t_load, 3),
        "amplify_seconds": round(stats.seconds, 3),
        "total_seconds": round(time.perf_counter() - t0, 3),
        "peak_rss_mib": round(_peak_rss_mib(), 1),
        "seed": args.seed,
        "out": str(args.out),
        "table": args.table,
    }
    del report["seconds"]
    json.dump(report, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
