"""The KL-divergence metric on the releases the benchmarks produce: Adult (30,162 rows, QIs age,
education, marital-status, race, sex, native-country, workclass with ARX hierarchies, SA occupation)
released by BSGI and Mondrian at l = 2 and 7 and by TP at l = 2 and 7 on the first six QIs, and TP on
1,000,000 rows of amplified Adult (bench/amplify.py, seed 7; six QIs, l = 2).

For every release: the metrics with KL and without (``compute_metrics`` with ``MetricsOptions(kl=False)``), best of
``--repeat``; the difference is KL's cost. Also the distinct source points and release patterns KL
works on. Writes bench/results/kl.json.

    python -m bench.kl [--repeat 3] [--skip-million]
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
QI = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass"]
TP_QI = ["age", "sex", "race", "marital-status", "education", "native-country"]
SA = "occupation"


def _measure(db: Any, source: str, release: str, qi: list[str], l: int, repeat: int) -> dict[str, Any]:
    from ldiv_db.core.catalog import resolve_table
    from ldiv_db.utility import Measured, MetricsOptions, compute_metrics

    src, rel = resolve_table(db, source), resolve_table(db, release)
    cols = [src.column(c) for c in qi]
    intervals = [c.is_numeric for c in cols]
    times: dict[bool, list[float]] = {True: [], False: []}
    kl = None
    for _ in range(repeat):
        for with_kl in (False, True):
            t0 = time.perf_counter()
            how = MetricsOptions(l=l, interval_labels=intervals, kl=with_kl)
            m = compute_metrics(db, Measured(src, rel, cols, [src.column(SA)]), how)
            times[with_kl].append(time.perf_counter() - t0)
            if with_kl:
                kl = m.kl
    points = db.con.execute(
        f"SELECT count(*) FROM (SELECT DISTINCT {', '.join(_q(c) for c in [*qi, SA])} FROM {_q(source)})"
    ).fetchone()[0]
    patterns = db.con.execute(
        f"SELECT count(*) FROM (SELECT DISTINCT {', '.join(_q(c) for c in [*qi, SA])} FROM {_q(release)})"
    ).fetchone()[0]
    return {
        "release": release,
        "rows": int(db.con.execute(f"SELECT count(*) FROM {_q(source)}").fetchone()[0]),
        "points": int(points),
        "patterns": int(patterns),
        "metrics_seconds_without_kl": round(min(times[False]), 3),
        "metrics_seconds_with_kl": round(min(times[True]), 3),
        "kl_seconds": round(min(times[True]) - min(times[False]), 3),
        "kl": kl,
    }


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def main(argv: list[str] | None = None) -> int:
    import ldiv_db
    from ldiv_db.taxonomy import import_hierarchy

    parser = argparse.ArgumentParser(prog="python -m bench.kl", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-million", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "kl.json")
    args = parser.parse_args(argv)

    db = ldiv_db.Database.open(":memory:")
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    for c in QI:
        import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
    runs = []
    for algorithm, qi in (("bsgi", QI), ("mondrian", QI), ("tp", TP_QI)):
        for l in (2, 7):
            out = f"{algorithm}_{l}"
            ldiv_db.anonymize(
                db, "adult", qi, SA, algorithm=algorithm, l=l, output=out, replace=True, kl=False
            )
            r = {"algorithm": algorithm, "l": l, **_measure(db, "adult", out, qi, l, args.repeat)}
            runs.append(r)
            print(json.dumps(r), flush=True)
    if not args.skip_million:
        from bench.amplify import amplify

        amplify(db.con, "adult", "adult_1m", n_rows=1_000_000, seed=7)
        ldiv_db.anonymize(
            db, "adult_1m", TP_QI, SA, algorithm="tp", l=2, output="tp_1m", replace=True, kl=False
        )
        r = {"algorithm": "tp", "l": 2, **_measure(db, "adult_1m", "tp_1m", TP_QI, 2, 1)}
        runs.append(r)
        print(json.dumps(r), flush=True)
    db.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "python": platform.python_version(),
    }
    args.out.write_text(json.dumps({"meta": meta, "runs": runs}, indent=1) + "\n")
    print("| release | rows | points | patterns | metrics without KL s | with KL s | KL s | KL |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        print(
            f"| {r['algorithm']} l={r['l']} | {r['rows']:,} | {r['points']:,} | {r['patterns']:,} | "
            f"{r['metrics_seconds_without_kl']:.2f} | {r['metrics_seconds_with_kl']:.2f} | {r['kl_seconds']:.2f} | "
            f"{r['kl'] if r['kl'] is None else round(r['kl'], 4)} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
