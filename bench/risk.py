"""``ldiv risk`` (issue 56) on Adult (30,162 rows, 8 QIs) and on 1,000,000 rows of amplified Adult
(bench/amplify.py, seed 7; its 7 QIs), as a user runs it: the command in its own process on a DuckDB
file, with ``--sampling-fraction 0.01`` (so the three estimators and Dankar's rule run) and again with
``--rows-out`` (the per-row table written). Wall seconds (best of ``--repeat``), statements issued and
the figures. Target: 10 s at 1M rows. Writes bench/results/risk.json.

    python -m bench.risk [--repeat 3] [--skip-million] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
QI8 = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class"]
TARGET = {"adult": 10.0, "adult_1m": 10.0}  # seconds


def _ldiv(*args: str) -> tuple[float, dict[str, Any]]:
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "ldiv_db.cli.main", *args, "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return time.perf_counter() - t0, json.loads(out)


def _measure(path: Path, table: str, qi: list[str], repeat: int) -> dict[str, Any]:
    base = ["risk", str(path), "--table", table, "--qi", ",".join(qi), "--sampling-fraction", "0.01"]
    walls, res = [], {}
    for _ in range(repeat):
        wall, res = _ldiv(*base)
        walls.append(wall)
    out_name = f"{table}_risk_rows_{int(time.time())}"
    rows_wall, _ = _ldiv(*base, "--rows-out", out_name)
    fig = {f["key"]: f["value"] for f in res["figures"]}
    return {
        "table": table,
        "rows": res["rows"],
        "qi": len(qi),
        "classes": res["classes"],
        "seconds": round(min(walls), 3),
        "seconds_rows_out": round(rows_wall, 3),
        "prosecutor_average": fig["prosecutor_average"],
        "sample_uniques": fig["sample_uniques"],
        "dankar": fig["dankar"],
        "dankar_model": res["population"]["dankar_model"],
        "target_seconds": TARGET[table],
        "load_after": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    import duckdb

    from bench.amplify import ADULT_QI, amplify, load_adult

    parser = argparse.ArgumentParser(prog="python -m bench.risk", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-million", action="store_true")
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "risk.json")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = (args.dir or Path(tmp)) / "risk_bench.duckdb"
        con = duckdb.connect(str(path))
        tables = {t for (t,) in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        if "adult" not in tables:
            load_adult(con, ADULT / "adult.csv")
        if not args.skip_million and "adult_1m" not in tables:
            amplify(con, "adult", "adult_1m", n_rows=1_000_000, seed=7)
        con.close()
        runs = [_measure(path, "adult", QI8, args.repeat)]
        print(json.dumps(runs[-1]), flush=True)
        if not args.skip_million:
            runs.append(_measure(path, "adult_1m", list(ADULT_QI), args.repeat))
            print(json.dumps(runs[-1]), flush=True)
    meta = {"date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count(), "python": platform.python_version()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "runs": runs}, indent=1) + "\n")
    print("| table | rows | QIs | classes | seconds | with --rows-out | Dankar (model) | target s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        dankar = "n/a" if r["dankar"] is None else f"{r['dankar']:.5f} ({r['dankar_model']})"
        print(
            f"| {r['table']} | {r['rows']:,} | {r['qi']} | {r['classes']:,} | {r['seconds']:.2f} | "
            f"{r['seconds_rows_out']:.2f} | {dankar} | {r['target_seconds']:.0f} |"
        )
    return 0 if all(r["seconds"] <= r["target_seconds"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
