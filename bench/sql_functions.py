"""The SQL functions of ``ldiv sql install`` against ``ldiv check`` (issue 55): the statistics
(``ldiv.l_diversity``) and one model's violating classes (``ldiv.violations``, distinct l = 3: counted,
and the five largest, as ``ldiv check`` lists its worst five) on Adult
(30,162 rows) and on the 1,000,000-row amplified Adult (bench/amplify.py), on DuckDB, in one process
and on one connection, best of five. Target: each SQL function within 1.5x of ``ldiv check``'s time
(the API call, which includes its catalog reads). Writes bench/results/sql_functions.json."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
QI = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass"]
SA = "occupation"
TARGET_RATIO = 1.5
RUNS = 5


def _best(step: Callable[[], Any]) -> tuple[float, Any]:
    step()  # warm-up: first-query costs, the file's pages in memory
    best, out = float("inf"), None
    for _ in range(RUNS):
        t0 = time.perf_counter()
        out = step()
        best = min(best, time.perf_counter() - t0)
    return best, out


def measure(db_path: Path, table: str) -> list[dict[str, Any]]:
    import ldiv_db
    from ldiv_db.commands import sql_functions

    sql_functions.install(str(db_path))
    db = ldiv_db.Database.open(str(db_path))
    con = db.con
    rows = []
    try:
        check_s, res = _best(lambda: ldiv_db.check(db, table, QI, SA))
        sql_s, stats = _best(
            lambda: con.execute("SELECT * FROM ldiv.l_diversity(?, ?, ?)", [table, QI, SA]).fetchall()
        )
        assert stats[0][:4] == (res.groups, res.rows, res.k, res.distinct_l), (stats, res.to_dict())
        rows.append(_row(table, "statistics", check_s, sql_s, res.groups))
        check_s, res = _best(lambda: ldiv_db.check(db, table, QI, SA, model="distinct", l=3))
        violations = "SELECT {} FROM ldiv.violations(?, ?, ?, 'distinct', 3){}"
        sql_s, bad = _best(lambda: con.execute(violations.format("count(*)", ""), [table, QI, SA]).fetchall())
        assert bad[0][0] == res.violating_groups, (bad, res.violating_groups)
        rows.append(_row(table, "violations counted", check_s, sql_s, bad[0][0]))
        sql_s, worst = _best(
            lambda: con.execute(violations.format("*", " LIMIT 5"), [table, QI, SA]).fetchall()
        )
        assert len(worst) == min(5, res.violating_groups)
        rows.append(_row(table, "violations, 5 largest", check_s, sql_s, len(worst)))
    finally:
        db.close()
    return rows


def _row(table: str, what: str, check_s: float, sql_s: float, n: int) -> dict[str, Any]:
    ratio = sql_s / check_s
    return {
        "table": table,
        "what": what,
        "check_seconds": round(check_s, 4),
        "sql_seconds": round(sql_s, 4),
        "ratio": round(ratio, 3),
        "classes": n,
        "target_ratio": TARGET_RATIO,
        "ok": ratio <= TARGET_RATIO,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.sql_functions")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "sql_functions.json")
    p.add_argument("--rows", type=int, default=1_000_000, help="rows of the amplified Adult")
    args = p.parse_args(argv)
    if not ADULT.exists():
        print(f"skipped: {ADULT} not found", file=sys.stderr)
        return 0
    from bench.amplify import amplify, load_adult

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "adult.duckdb"
        con = duckdb.connect(str(path))
        load_adult(con, ADULT / "adult.csv", "adult")
        amplify(con, "adult", "adult_1m", args.rows, seed=7)
        con.close()
        results = measure(path, "adult") + measure(path, "adult_1m")
    print(f"{'table':<10} {'what':<26} {'check s':>9} {'sql s':>9} {'ratio':>6}  ok")
    for r in results:
        print(
            f"{r['table']:<10} {r['what']:<26} {r['check_seconds']:>9.4f} {r['sql_seconds']:>9.4f} "
            f"{r['ratio']:>6.2f}  {'yes' if r['ok'] else 'NO'}"
        )
    args.out.write_text(json.dumps({"suite": "sql_functions", "results": results}, indent=2) + "\n")
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
