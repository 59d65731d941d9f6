"""The composition check (``ldiv compose``, issue 51 class 5) on the releases it was built for: Mondrian
and BSGI at l = 4 on Adult (30,162 rows, 8 QIs: age, education, marital-status, race, sex,
native-country, workclass, salary-class with ARX hierarchies; SA occupation), and on 1,000,000 rows of
amplified Adult (bench/amplify.py, seed 7; its 7 QIs). Only the check is timed (the releases are made
first): wall seconds (best of ``--repeat``), the process's CPU seconds (DuckDB's threads included),
statements issued, peak memory, and the attack's counts. Writes bench/results/compose.json.

    python -m bench.compose [--repeat 3] [--skip-million] [--db FILE]

``--db FILE``: a DuckDB file to build in (or reuse: releases already in it are not made again).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
QI8 = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass", "salary-class"]
SA = "occupation"
L = 4
TARGET = {"adult": 5.0, "adult_1m": 60.0}  # seconds: "seconds on Adult, within a minute at 1M rows"


def _releases(db: Any, table: str, qi: list[str]) -> list[str]:
    import ldiv_db
    from ldiv_db.pipeline.compose import release_ids

    names = []
    for algorithm in ("mondrian", "bsgi"):
        name = f"{table}_{algorithm}_{L}"
        try:
            release_ids(db, [name])
        except ldiv_db.LdivError:
            t0 = time.perf_counter()
            ldiv_db.anonymize(
                db, table, qi, SA, algorithm=algorithm, l=L, output=name, replace=True, kl=False
            )
            print(f"  made {name} in {time.perf_counter() - t0:.1f} s", flush=True)
        names.append(name)
    return names


def _measure(db: Any, table: str, names: list[str], repeat: int) -> dict[str, Any]:
    from bench.memory import own_peak_mib
    from ldiv_db.pipeline.compose import compose, release_ids

    ids = release_ids(db, names)
    walls, cpus, res, queries = [], [], None, 0
    for _ in range(repeat):
        q0, c0, t0 = db.queries, time.process_time(), time.perf_counter()
        res = compose(db, ids)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        queries = db.queries - q0
        db.drop_work_tables()
    assert res is not None
    return {
        "table": table,
        "releases": list(res.names),
        "rows": res.rows,
        "l": L,
        "below": list(res.below),
        "single": res.single,
        "pair_below": res.pairs[0][2],
        "seconds": round(min(walls), 3),
        "cpu_seconds": round(min(cpus), 3),
        "queries": queries,
        "peak_mib": own_peak_mib(),
        "target_seconds": TARGET[table],
        "load_after": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    import ldiv_db
    from ldiv_db.taxonomy import import_hierarchy

    parser = argparse.ArgumentParser(prog="python -m bench.compose", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-million", action="store_true")
    parser.add_argument("--db", default=":memory:")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "compose.json")
    args = parser.parse_args(argv)

    db = ldiv_db.Database.open(args.db)
    tables = {
        name for (name,) in db.con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    if "adult" not in tables:
        ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
        for c in QI8:
            import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
    runs = [_measure(db, "adult", _releases(db, "adult", QI8), args.repeat)]
    print(json.dumps(runs[-1]), flush=True)
    if not args.skip_million:
        from bench.amplify import ADULT_QI, amplify

        if "adult_1m" not in tables:
            amplify(db.con, "adult", "adult_1m", n_rows=1_000_000, seed=7)
            for c in ADULT_QI:
                import_hierarchy(db, "adult_1m", c, ADULT / f"adult_hierarchy_{c}.csv")
        runs.append(_measure(db, "adult_1m", _releases(db, "adult_1m", list(ADULT_QI)), 1))
        print(json.dumps(runs[-1]), flush=True)
    db.close()
    meta = {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "python": platform.python_version(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "runs": runs}, indent=1) + "\n")
    print("| table | rows | below l (each) | one value | seconds | CPU s | queries | peak MiB | target s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        print(
            f"| {r['table']} | {r['rows']:,} | {r['below'][0]:,} | {r['single']:,} | {r['seconds']:.2f} | "
            f"{r['cpu_seconds']:.2f} | {r['queries']} | {r['peak_mib']:.0f} | {r['target_seconds']:.0f} |"
        )
    return 0 if all(r["seconds"] <= r["target_seconds"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
