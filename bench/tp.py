"""TP, TP+ and Hilbert benchmarks (issue 4).

* Adult (30,162 rows, SA occupation), QI sets of d = 3..7 attributes in the order age, sex, race,
  marital-status, education, native-country, workclass, and l = 2..7: stars, suppressed rows, the phase
  TP ended in, |R|, times (``AnonymizeResult.seconds`` = the whole pipeline with writing, verification
  and metrics; ``algorithm_seconds`` = the algorithm alone), queries issued; every release is re-checked
  with ``ldiv check --model frequency``. Targets: TP ≤ 1 s and TP+ ≤ 3 s per setting.
* TP on 1,000,000 rows of amplified Adult (bench/amplify.py, seed 7). Target ≤ 10 s.

``python -m bench.tp [--repeat N] [--large-l 2,4,7] [--skip-large]`` writes bench/results/tp.json and
prints the tables of bench/README.md. Times are the best of ``--repeat`` runs (median also stored).
Exit status 1 when a target is missed or a release fails a check.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
QI_ORDER = ["age", "sex", "race", "marital-status", "education", "native-country", "workclass"]
SA = "occupation"
ALGORITHMS = ["tp", "tp+", "hilbert"]
TARGETS = {"tp": 1.0, "tp+": 3.0, "tp_1m": 10.0}


def _run(db: Any, table: str, qi: list[str], l: int, algorithm: str, repeat: int) -> dict[str, Any]:
    import ldiv_db

    runs = []
    result = None
    for _ in range(repeat):
        result = ldiv_db.anonymize(
            db, table, qi, SA, algorithm=algorithm, output="bench_tp_out", l=l, replace=True
        )
        runs.append((result.seconds, float(result.details.get("algorithm_seconds", 0.0))))
    assert result is not None
    check = ldiv_db.check(db, result.output, qi, SA, model="frequency", l=l)
    d = result.details
    return {
        "algorithm": algorithm,
        "d": len(qi),
        "l": l,
        "seconds": round(min(r[0] for r in runs), 4),
        "seconds_median": round(statistics.median(r[0] for r in runs), 4),
        "algorithm_seconds": round(min(r[1] for r in runs), 4),
        "algorithm_seconds_median": round(statistics.median(r[1] for r in runs), 4),
        "queries": result.queries,
        "stars": result.metrics["stars"],
        "suppressed_rows": result.rows_with_suppressed_cells,  # TP's "suppressed rows" (SPEC §0.5)
        "groups": result.groups,
        "phase": d.get("phase_ended"),
        "residue_rows": d.get("residue_rows"),
        "residue_lower_bound": d.get("residue_lower_bound"),
        "residue_split": d.get("residue_split"),
        "qi_groups_published": d.get("qi_groups_published"),
        "verified": result.verified,
        "check_frequency": bool(check.satisfied),
    }


def adult(repeat: int) -> list[dict[str, Any]]:
    import ldiv_db

    db = ldiv_db.Database.open(":memory:")
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    out = []
    for d in range(3, 8):
        for l in range(2, 8):
            for algorithm in ALGORITHMS:
                rec = _run(db, "adult", QI_ORDER[:d], l, algorithm, repeat)
                out.append(rec)
                print(_line(rec), flush=True)
    db.close()
    return out


def large(rows: int, ls: list[int], ds: list[int], repeat: int) -> dict[str, Any]:
    import ldiv_db
    from bench.amplify import amplify

    db = ldiv_db.Database.open(":memory:")
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    stats = amplify(db.con, "adult", "adult_1m", n_rows=rows, seed=7)
    out = []
    for d in ds:
        for l in ls:
            rec = _run(db, "adult_1m", QI_ORDER[:d], l, "tp", repeat)
            rec["steps_ms"] = _tp_steps(db)
            out.append(rec)
            print(_line(rec), flush=True)
    db.close()
    return {"rows": rows, "amplify_seconds": round(stats.seconds, 3), "runs": out}


def _tp_steps(db: Any) -> dict[str, float]:
    """Milliseconds per statement of the last run: TP's own templates and the pipeline's biggest ones."""
    rows = db.con.execute(
        "SELECT template, sum(ms) FROM ldiv.run_step WHERE run_id = (SELECT max(run_id) FROM ldiv.run_step) "
        "GROUP BY template ORDER BY 2 DESC"
    ).fetchall()
    return {str(t): round(float(ms), 1) for t, ms in rows if str(t).startswith("tp/") or float(ms) >= 100}


def _line(r: dict[str, Any]) -> str:
    return (
        f"d={r['d']} l={r['l']} {r['algorithm']:<7} stars {r['stars']:>7} suppressed {r['suppressed_rows']:>6} "
        f"phase {r['phase'] or '-'} |R| {r['residue_rows'] if r['residue_rows'] is not None else '-':>6} "
        f"{r['seconds']:.3f} s (algorithm {r['algorithm_seconds']:.3f} s) {r['queries']} queries "
        f"{'ok' if r['verified'] and r['check_frequency'] else 'CHECK FAILED'}"
    )


def markdown(results: dict[str, Any]) -> str:
    """The comparison and timing tables of bench/README.md."""
    by = {(r["d"], r["l"], r["algorithm"]): r for r in results["adult"]}
    lines = [
        "| d | l | TP stars | TP suppressed | TP phase | TP+ stars | TP+ suppressed | Hilbert stars | "
        "Hilbert suppressed | TP+ < Hilbert |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for d in range(3, 8):
        for l in range(2, 8):
            tp, plus, hil = by[(d, l, "tp")], by[(d, l, "tp+")], by[(d, l, "hilbert")]
            lines.append(
                f"| {d} | {l} | {tp['stars']:,} | {tp['suppressed_rows']:,} | {tp['phase']} | {plus['stars']:,} | "
                f"{plus['suppressed_rows']:,} | {hil['stars']:,} | {hil['suppressed_rows']:,} | "
                f"{'yes' if plus['stars'] < hil['stars'] else '**no**'} |"
            )
    lines += [
        "",
        "| d | l | TP s (algorithm) | TP queries | TP+ s (algorithm) | TP+ queries | Hilbert s (algorithm) | "
        "Hilbert queries |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for d in range(3, 8):
        for l in range(2, 8):
            cells = []
            for a in ALGORITHMS:
                r = by[(d, l, a)]
                cells += [f"{r['seconds']:.2f} ({r['algorithm_seconds']:.2f})", str(r["queries"])]
            lines.append(f"| {d} | {l} | " + " | ".join(cells) + " |")
    if results.get("large"):
        lines += [
            "",
            "| rows | d | l | TP s | algorithm s | queries | phase | QI-groups published | \\|R\\| | stars | tp/* ms |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for r in results["large"]["runs"]:
            tp_ms = ", ".join(f"{k.split('/')[1].removesuffix('.sql')} {v:.0f}" for k, v in r["steps_ms"].items()
                              if k.startswith("tp/"))  # fmt: skip
            lines.append(
                f"| {results['large']['rows']:,} | {r['d']} | {r['l']} | {r['seconds']:.2f} | "
                f"{r['algorithm_seconds']:.2f} | {r['queries']} | {r['phase']} | {r['qi_groups_published']:,} | "
                f"{r['residue_rows']:,} | {r['stars']:,} | {tp_ms} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tp", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per Adult setting (best and median kept)")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--large-l", default="2,4,7", help="values of l for the amplified table")
    parser.add_argument("--large-d", default="3,5,7", help="QI counts for the amplified table")
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "tp.json")
    parser.add_argument("--markdown", type=Path, help="print the tables of an existing results file and exit")
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(args.markdown.read_text(encoding="utf-8"))))
        return 0
    if not (ADULT / "adult.csv").exists():
        print(f"skipped: {ADULT / 'adult.csv'} is absent")
        return 0
    import duckdb

    t0 = time.perf_counter()
    results: dict[str, Any] = {
        "suite": "tp",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "duckdb": duckdb.__version__,
            "load_average_start": [round(x, 2) for x in os.getloadavg()],
        },
        "targets": TARGETS,
        "repeat": args.repeat,
        "adult": adult(args.repeat),
    }
    if not args.skip_large:
        ls = [int(x) for x in args.large_l.split(",")]
        ds = [int(x) for x in args.large_d.split(",")]
        results["large"] = large(args.rows, ls, ds, 1)
    results["machine"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    results["total_seconds"] = round(time.perf_counter() - t0, 1)

    adult_runs = results["adult"]
    by = {(r["d"], r["l"], r["algorithm"]): r for r in adult_runs}
    misses = [
        f"{r['algorithm']} d={r['d']} l={r['l']}: {r['seconds']:.2f} s > {TARGETS[r['algorithm']]} s"
        for r in adult_runs
        if r["algorithm"] in TARGETS and r["seconds"] > TARGETS[r["algorithm"]]
    ]
    misses += [
        f"tp 1M d={r['d']} l={r['l']}: {r['seconds']:.2f} s > {TARGETS['tp_1m']} s"
        for r in results.get("large", {}).get("runs", [])
        if r["seconds"] > TARGETS["tp_1m"]
    ]
    failed = [
        f"{r['algorithm']} d={r['d']} l={r['l']}"
        for r in [*adult_runs, *results.get("large", {}).get("runs", [])]
        if not (r["verified"] and r["check_frequency"])
    ]
    worse = [
        f"d={d} l={l}"
        for (d, l, a) in by
        if a == "tp+" and by[(d, l, "tp+")]["stars"] > by[(d, l, "tp")]["stars"]
    ]
    plus_not_below = [
        f"d={d} l={l}"
        for (d, l, a) in by
        if a == "tp+" and by[(d, l, "tp+")]["stars"] >= by[(d, l, "hilbert")]["stars"]
    ]
    results["summary"] = {
        "target_misses": misses,
        "check_failures": failed,
        "tp_plus_more_stars_than_tp": worse,
        "tp_plus_not_below_hilbert": plus_not_below,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print()
    print(markdown(results))
    print(f"\nsummary: {json.dumps(results['summary'], indent=1)}")
    return 1 if misses or failed or worse else 0


if __name__ == "__main__":
    sys.exit(main())
