"""Engines (issue 13): the same commands on DuckDB and on PostgreSQL, on Adult (30,162 rows) and on the
1,000,000-row amplified Adult (bench/amplify.py, seed 7): ``check``, ``tp+`` (d = 5, l = 4), ``lplus``
(6 QIs, l = 4) and ``bsgi`` (l = 4). Per case: wall-clock seconds of the API call (best of --repeat;
at 1M only check and tp+ are repeated),
statements sent, rows fetched into Python, and the peak memory (VmHWM, bench/memory.py) of the Python process, which
runs each case alone. PostgreSQL is a throw-away local server (tests/engines/pg_server.py) unless
LDIV_BENCH_PG_URL names one; both engines run on the same machine."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.memory import own_peak_mib

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
QI7 = ["age", "education", "native-country", "workclass", "marital-status", "sex", "race"]
SA = "occupation"
HIERARCHIES = [
    "age",
    "education",
    "marital-status",
    "native-country",
    "race",
    "sex",
    "workclass",
    "occupation",
]
CASES: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    "check": ("check", QI7, {"model": "recursive", "l": 3, "c": 4}),
    "tp+": ("tp+", QI7[:5], {"l": 4}),
    "lplus": ("lplus", QI7[:6], {"l": 4}),
    "bsgi": ("bsgi", QI7[:5], {"l": 4}),
}
RATIO_TARGET = {"adult": 3.0, "1m": 5.0}
# at 1M the cases of seconds are timed best of --repeat too, as on Adult: one run alone is a draw (on the
# bench machine, 2026-11-24: DuckDB's 1M check 0.345-0.397 s in six runs, PostgreSQL's 2.12-2.27 s, and
# 2.2-2.9 s in a busier hour; PostgreSQL's tp+ 22.3-25.5 s in five); lplus and bsgi take minutes and run once
REPEATED_AT_1M = frozenset({"check", "tp+"})
PEAK_TARGET_MIB = {"1m": 1024.0}


def _prepare(target: str, table: str, csv_path: Path) -> float:
    import ldiv_db
    from ldiv_db import taxonomy

    t0 = time.perf_counter()
    with ldiv_db.Database.open(target) as db:
        ldiv_db.load(db, csv_path, table, sep=";", replace=True)
        for col in HIERARCHIES:
            taxonomy.import_hierarchy(db, table, col, ADULT / f"adult_hierarchy_{col}.csv")
    return time.perf_counter() - t0


def case(name: str, target: str, table: str, repeat: int) -> dict[str, Any]:
    import ldiv_db

    kind, qi, kwargs = CASES[name]
    # the API's modules are imported before the clock starts: an import is the same on both engines and
    # no engine's work, and where bytecode is not cached (PYTHONDONTWRITEBYTECODE) it compiles them,
    # which put 0.2-0.5 s of the same cost on both sides of a ratio
    check, anonymize = ldiv_db.check, ldiv_db.anonymize
    best: tuple[float, int, int] | None = None
    for _ in range(repeat):
        with ldiv_db.Database.open(target, mode="read" if kind == "check" else "write") as db:
            q0, f0 = db.queries, db.rows_fetched
            t0 = time.perf_counter()
            if kind == "check":
                check(db, table, qi, SA, **kwargs)
            else:
                out = f"bench_{kind.replace('+', 'p')}"
                r = anonymize(db, table, qi, SA, algorithm=kind, output=out, replace=True, kl=False, **kwargs)
                assert r.verified
            run = (time.perf_counter() - t0, db.queries - q0, db.rows_fetched - f0)
        best = run if best is None or run[0] < best[0] else best
    assert best is not None
    return {"seconds": round(best[0], 3), "statements": best[1], "rows_fetched": best[2]}


def _run_case(name: str, engine: str, target: str, table: str, repeat: int) -> dict[str, Any]:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.engines",
            "--case",
            name,
            "--target",
            target,
            "--table",
            table,
            "--repeat",
            str(repeat),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if out.returncode:
        return {"case": name, "engine": engine, "error": out.stderr.strip().splitlines()[-1:]}
    res = json.loads(out.stdout.strip().splitlines()[-1])
    return {"case": name, "engine": engine, **res}


def _csv_1m(work: Path) -> Path:
    import duckdb

    from bench.amplify import amplify, load_adult

    con = duckdb.connect(str(work / "amp.duckdb"))
    load_adult(con, ADULT / "adult.csv", "adult")
    amplify(con, "adult", "adult_1m", 1_000_000, seed=7)
    path = work / "adult_1m.csv"
    con.execute(f"COPY adult_1m TO '{path}' (HEADER, DELIMITER ';')")
    con.close()
    return path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.engines")
    p.add_argument("--case")
    p.add_argument("--target")
    p.add_argument("--table", default="adult")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--sizes", default="adult,1m")
    p.add_argument("--cases", default=",".join(CASES), help="comma-separated subset of " + ", ".join(CASES))
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "engines.json")
    args = p.parse_args(argv)
    if args.case:
        res = case(args.case, args.target, args.table, args.repeat)
        res["peak_mib"] = own_peak_mib()
        print(json.dumps(res))
        return 0
    if not (ADULT / "adult.csv").exists():
        print(f"skipped: {ADULT} not found", file=sys.stderr)
        return 0
    server = None
    url = os.environ.get("LDIV_BENCH_PG_URL")
    if url is None:
        sys.path.insert(0, str(ROOT))
        from tests.engines import pg_server

        server = pg_server.start()
    results: list[dict[str, Any]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            for size in args.sizes.split(","):
                csv_path = ADULT / "adult.csv" if size == "adult" else _csv_1m(work)
                table = "adult" if size == "adult" else "adult_1m"
                targets = {"duckdb": str(work / f"{size}.duckdb")}
                targets["postgres"] = url or server.url(server.new_database(f"bench_{size}"))  # type: ignore[union-attr]
                for engine, target in targets.items():
                    load_s = _prepare(target, table, csv_path)
                    results.append(
                        {"case": "load", "engine": engine, "size": size, "seconds": round(load_s, 3)}
                    )
                    for name in args.cases.split(","):
                        repeat = args.repeat if size == "adult" or name in REPEATED_AT_1M else 1
                        res = _run_case(name, engine, target, table, repeat)
                        res["size"] = size
                        results.append(res)
                        print(json.dumps(res), flush=True)
    finally:
        if server is not None:
            server.stop()
    ok = _judge(results)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    _table(results)
    return 0 if ok else 1


def _judge(results: list[dict[str, Any]]) -> bool:
    ok = True
    by = {(r["size"], r["case"], r["engine"]): r for r in results}
    for (size, name, engine), r in by.items():
        if engine != "postgres" or "seconds" not in r:
            continue
        duck = by.get((size, name, "duckdb"), {})
        if "seconds" in duck and duck["seconds"] > 0:
            r["ratio"] = round(r["seconds"] / duck["seconds"], 2)
            r["ok"] = r["ratio"] <= RATIO_TARGET[size] and r.get("peak_mib", 0) <= PEAK_TARGET_MIB.get(
                size, 1e9
            )
            ok = ok and (r["ok"] or name == "load")
    return ok


def _table(results: list[dict[str, Any]]) -> None:
    print(
        f"{'size':<6}{'case':<7}{'engine':<10}{'seconds':>9}{'stmts':>7}{'fetched':>9}{'peak MiB':>9}{'ratio':>7}"
    )
    for r in results:
        print(
            f"{r['size']:<6}{r['case']:<7}{r['engine']:<10}{r.get('seconds', 'ERR'):>9}{r.get('statements', ''):>7}"
            f"{r.get('rows_fetched', ''):>9}{r.get('peak_mib', ''):>9}{r.get('ratio', ''):>7}"
        )


if __name__ == "__main__":
    sys.exit(main())
