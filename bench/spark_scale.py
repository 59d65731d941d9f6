"""Spark at scale (issue 14): the amplified Adult (bench/amplify.py, seed 7) at --rows rows on DuckDB and
on Spark ``local[2]``: ``check`` (7 QIs, recursive c = 4, l = 3), ``tp+`` (d = 5, l = 4), ``lplus``
(6 QIs, DM / allRec, l = 4) and ``bsgi`` (5 QIs, l = 4), anonymize runs with ``kl = false``.

Per case, in a process of its own (so its peak memory is its own): wall-clock seconds of the API call,
statements sent, rows fetched into Python (``Database.rows_fetched``), the Python process's peak memory
(``VmHWM``) and, on Spark, the driver JVM's peak resident memory (``VmHWM``; in local mode the
executors are threads of that JVM). A case that passes --timeout is killed and recorded as such.

The table reaches Spark as a Parquet file DuckDB writes (with the row id column ``ldiv_rowid`` that
``ldiv load`` adds on Spark) and ``CREATE TABLE ... USING parquet`` — where a data lake's table already
lives; ``ldiv load`` on Spark would pass the whole file through the driver. Results are written to
--out after every case, so an interrupted run keeps what completed.

    nice python -m bench.spark_scale --rows 10000000 [--engines duckdb,spark] [--cases check,tp+,lplus,bsgi]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.engines import ADULT, HIERARCHIES, QI7, ROOT, SA
from bench.engines import CASES as ENGINE_CASES
from bench.memory import own_peak_mib

# the engines bench's table, hierarchies and cases; lplus here with DM / allRec
CASES: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    **ENGINE_CASES,
    "lplus": ("lplus", QI7[:6], {"l": 4, "metric": "dm", "suppression": "allrec"}),
}
SPARK_CONF = "spark.driver.memory=4g"


def spark_url(work: Path) -> str:
    return f"spark://local[2]?warehouse={work / 'warehouse'}&{SPARK_CONF}"


def _jvm_peak_mib(db: Any) -> float | None:
    """The driver JVM's peak resident memory (Linux ``VmHWM``), when the session runs in a local JVM."""
    try:
        pid = db.spark.sparkContext._gateway.proc.pid
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024.0, 1)
    except (AttributeError, OSError, ValueError):
        return None
    return None


def case(name: str, target: str, table: str) -> dict[str, Any]:
    import ldiv_db

    kind, qi, kwargs = CASES[name]
    check, anonymize = ldiv_db.check, ldiv_db.anonymize  # imported before the clock (bench/engines.py)
    with ldiv_db.Database.open(target, mode="read" if kind == "check" else "write") as db:
        q0, f0 = db.queries, db.rows_fetched
        t0 = time.perf_counter()
        if kind == "check":
            check(db, table, qi, SA, **kwargs)
        else:
            out = f"bench_{kind.replace('+', 'p')}"
            r = anonymize(db, table, qi, SA, algorithm=kind, output=out, replace=True, kl=False, **kwargs)
            assert r.verified
        res: dict[str, Any] = {
            "seconds": round(time.perf_counter() - t0, 3),
            "statements": db.queries - q0,
            "rows_fetched": db.rows_fetched - f0,
        }
        jvm = _jvm_peak_mib(db) if target.startswith("spark://") else None
    res["peak_mib"] = own_peak_mib()
    if jvm is not None:
        res["jvm_peak_mib"] = jvm
    return res


def amplified(work: Path, rows: int) -> Path:
    """The amplified table as a Parquet file with the row id column (built once per --work)."""
    import duckdb

    from bench.amplify import amplify, load_adult

    pq = work / f"adult_{rows}.parquet"
    if not pq.exists():
        con = duckdb.connect(str(work / "amp.duckdb"))
        load_adult(con, ADULT / "adult.csv", "adult")
        amplify(con, "adult", "amp", rows, seed=7)
        con.execute(f"COPY (SELECT *, rowid AS ldiv_rowid FROM amp) TO '{pq}' (FORMAT parquet)")
        con.execute("DROP TABLE amp")
        con.close()
    return pq


def load(target: str, table: str, pq: Path) -> None:
    """The Parquet file as ``table`` on the target, with the eight Adult hierarchies."""
    import ldiv_db
    from ldiv_db import taxonomy

    with ldiv_db.Database.open(target) as db:
        if target.startswith("spark://"):
            db.spark.sql(f"DROP TABLE IF EXISTS default.{table}")
            db.spark.sql(f"CREATE TABLE default.{table} USING parquet AS SELECT * FROM parquet.`{pq}`")
        else:
            db.execute_script("bench_load", f"CREATE OR REPLACE TABLE main.{table} AS FROM '{pq}'")
            db.execute_script("bench_load", f"ALTER TABLE main.{table} DROP COLUMN ldiv_rowid")
        for col in HIERARCHIES:
            taxonomy.import_hierarchy(db, table, col, ADULT / f"adult_hierarchy_{col}.csv")


def _sub(args: list[str], timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """A step in a process of its own (Spark's embedded metastore admits one process at a time)."""
    cmd = [sys.executable, "-m", "bench.spark_scale", *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False, timeout=timeout)


def _run(name: str, engine: str, target: str, table: str, timeout: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    try:
        out = _sub(["--case", name, "--target", target, "--table", table], timeout)
    except subprocess.TimeoutExpired:
        return {"case": name, "engine": engine, "error": f"not finished after {timeout:.0f} s (killed)"}
    if out.returncode:
        return {"case": name, "engine": engine, "error": out.stderr.strip().splitlines()[-1:]}
    res = json.loads(out.stdout.strip().splitlines()[-1])
    return {"case": name, "engine": engine, "process_s": round(time.perf_counter() - t0, 1), **res}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.spark_scale")
    p.add_argument("--case")
    p.add_argument("--target")
    p.add_argument("--table")
    p.add_argument("--load", type=Path, help="load this Parquet file as --table on --target")
    p.add_argument("--rows", type=int, default=10_000_000)
    p.add_argument("--engines", default="duckdb,spark")
    p.add_argument("--cases", default=",".join(CASES), help="comma-separated subset of " + ", ".join(CASES))
    p.add_argument("--order", default="case", choices=["case", "engine"], help="case: both engines per case")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds per case")
    p.add_argument("--work", type=Path, default=Path("/tmp/ldiv_spark_scale"))
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    if args.case:
        print(json.dumps(case(args.case, args.target, args.table)))
        return 0
    if args.load:
        load(args.target, args.table, args.load)
        return 0
    if not (ADULT / "adult.csv").exists():
        print(f"skipped: {ADULT} not found", file=sys.stderr)
        return 0
    out = args.out or ROOT / "bench" / "results" / f"spark_scale_{args.rows}.json"
    args.work.mkdir(parents=True, exist_ok=True)
    engines = args.engines.split(",")
    table = f"adult_{args.rows}"
    targets = {"duckdb": str(args.work / f"{table}.duckdb"), "spark": spark_url(args.work)}
    t0 = time.perf_counter()
    pq = amplified(args.work, args.rows)
    info: dict[str, Any] = {"table": table, "amplify_s": round(time.perf_counter() - t0, 1)}
    for engine in engines:
        t0 = time.perf_counter()
        done = _sub(["--load", str(pq), "--target", targets[engine], "--table", table])
        if done.returncode:
            raise SystemExit(f"loading on {engine} failed: {done.stderr.strip().splitlines()[-1:]}")
        info[f"load_{engine}_s"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(info), flush=True)
    results: list[dict[str, Any]] = []
    pairs = [(c, e) for c in args.cases.split(",") for e in engines]
    if args.order == "engine":
        pairs.sort(key=lambda ce: engines.index(ce[1]))
    for name, engine in pairs:
        res = _run(name, engine, targets[engine], table, args.timeout)
        res["rows"] = args.rows
        results.append(res)
        print(json.dumps(res), flush=True)
        out.write_text(json.dumps({"prepare": info, "cases": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
