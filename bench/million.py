"""Mondrian, TP+, Decomposition+ and top-down on 1,000,000 rows (issue 57 item 4), with where the time goes.

The table: Adult amplified by bench/amplify.py (seed 7, the 8 QIs of bench/optimal.py randomized), with
the ARX hierarchies of those QIs and of occupation; built once and cached as
``~/.cache/ldiv_db/adult_1m_s7_q8.duckdb`` (``LDIV_CACHE`` overrides the directory). Every run gets a
fresh copy of that file in a temporary directory, in a process of its own (so its peak RSS is its own).

The workloads (issue 57): QIs age, education, native-country, workclass, marital-status (top-down adds
sex and race), SA occupation, l = 4, each algorithm's default model (top-down: distinct, as occupation
has no sensitivity categories), KL off, run seed 1 (the releases are then reproducible).

Per run: wall seconds of the API call, the process's CPU seconds in it (DuckDB's threads included), its
peak RSS, the load average, the algorithm's own seconds (its ``run`` timed), the statements, the
slowest statement templates (``ldiv.run_step``), and the release: classes, rows, IL / stars / DM and a
SHA-256 of the assignment up to renumbering (bench/identity.py's), so "same releases" is checked on 1M.

    python -m bench.million                        # best of --repeat (default 3); bench/results/million.json
    python -m bench.million --compare ../before    # an older checkout too, alternating; same releases?
    python -m bench.million --only mondrian,tp+ --repeat 1 --steps
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.bytecode import compile_tree

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
RESULTS = ROOT / "bench" / "results" / "million.json"
CACHE = Path(os.environ.get("LDIV_CACHE", Path.home() / ".cache" / "ldiv_db"))
TABLE = "adult_1m"
QI8 = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class"]
QI5 = ["age", "education", "native-country", "workclass", "marital-status"]
SA = "occupation"
SEED = 1
# name -> (algorithm, QIs, options); goals of issue 57 item 4 (seconds, MiB or None)
CASES: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    "mondrian": ("mondrian", QI5, {"l": 4}),
    "tp+": ("tp+", QI5, {"l": 4}),
    "decomposition": ("decomposition", QI5, {"l": 4}),
    "topdown": ("topdown", [*QI5, "sex", "race"], {"l": 4, "model": "distinct"}),
}
GOALS: dict[str, tuple[float, float | None]] = {
    "mondrian": (3.0, None),
    "tp+": (2.0, None),
    "decomposition": (3.0, None),
    "topdown": (9.7, 1024.0),
}


def cached_table() -> Path:
    """The cached database with the amplified table and its hierarchies (built on first use)."""
    path = CACHE / "adult_1m_s7_q8.duckdb"
    if path.exists():
        return path
    import ldiv_db
    from bench.amplify import amplify
    from ldiv_db import taxonomy

    CACHE.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")  # renamed when complete: no half-built cache
    db = ldiv_db.Database.open(part)
    ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
    amplify(db.con, "adult", TABLE, 1_000_000, seed=7, qi=QI8)
    for col in [*QI8, SA]:
        taxonomy.import_hierarchy(db, TABLE, col, ADULT / f"adult_hierarchy_{col}.csv")
    db.con.execute("CHECKPOINT")
    db.close()
    part.replace(path)
    return path


def _timed_run() -> dict[str, Any]:
    """Time every registered algorithm's ``run`` (as bench/pipeline.py does)."""
    from ldiv_db.algorithms import REGISTRY

    probe: dict[str, Any] = {}
    for cls in REGISTRY.values():
        original = cls.run

        def run(self: Any, request: Any, _original: Any = original) -> Any:
            db = request.db
            s0, t0, c0 = len(db.steps), time.perf_counter(), _cpu()
            try:
                return _original(self, request)
            finally:
                probe.update(seconds=time.perf_counter() - t0, cpu=_cpu() - c0, steps=(s0, len(db.steps)))

        cls.run = run  # type: ignore[method-assign]
    return probe


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _steps(db: Any, run_id: int) -> list[tuple[str, float]]:
    rows = db.con.execute(
        "SELECT template, sum(ms) FROM ldiv.run_step WHERE run_id = ? GROUP BY template ORDER BY 2 DESC",
        [run_id],
    ).fetchall()
    return [(str(t), round(float(ms), 1)) for t, ms in rows[:12]]


def measure(name: str, source: Path) -> dict[str, Any]:
    """One run of case ``name`` on a fresh copy of ``source``, in this process."""
    import pandas  # noqa: F401  # before the clock: the run's frame library, as `import ldiv_db` loaded it

    import ldiv_db
    from bench.identity import _assignment

    probe = _timed_run()
    algorithm, qi, options = CASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "million.duckdb"
        shutil.copyfile(source, path)
        db = ldiv_db.Database.open(path)
        load = os.getloadavg()[0]
        c0, t0 = _cpu(), time.perf_counter()
        r = ldiv_db.anonymize(
            db, TABLE, qi, SA, algorithm=algorithm, output="out", replace=True, kl=False, seed=SEED, **options
        )
        wall, cpu = time.perf_counter() - t0, _cpu() - c0
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
        assignment, _ = _assignment(db, int(r.release_id))
        rec = {
            "case": name,
            "seconds": round(wall, 3),
            "cpu_seconds": round(cpu, 3),
            "peak_rss_mib": round(rss, 1),
            "load": round(load, 2),
            "algorithm_seconds": round(probe["seconds"], 3),
            "algorithm_cpu_seconds": round(probe["cpu"], 3),
            "statements": r.queries,
            "steps_ms": _steps(db, int(r.run_id)),
            "release": {
                "classes": r.classes,
                "rows_published": r.rows_published,
                "rows_deleted": r.rows_deleted,
                "rows_with_suppressed_cells": r.rows_with_suppressed_cells,
                "verified": r.verified,
                "assignment": assignment,
                "metrics": {k: r.metrics.get(k) for k in ("il", "dm", "stars", "cavg", "ncp")},
            },
        }
        db.close()
    return rec


def _subprocess(checkout: Path, name: str, source: Path) -> dict[str, Any]:
    # this script, the library (and bench/identity.py) of the measured checkout
    args = [sys.executable, str(Path(__file__).resolve()), "--measure", name, "--source", str(source)]
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    proc = subprocess.run(args, cwd=checkout, env=env, capture_output=True, text=True, check=False)
    if proc.returncode:
        raise SystemExit(f"{checkout} {name}: {proc.stderr.strip()[-3000:]}")
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def _line(label: str, r: dict[str, Any]) -> str:
    m = r["release"]
    return (
        f"{label:<6} {r['case']:<13} {r['seconds']:7.2f} s  CPU {r['cpu_seconds']:6.2f} s  "
        f"algorithm {r['algorithm_seconds']:6.2f} s  peak {r['peak_rss_mib']:6.0f} MiB  load {r['load']:4.2f}  "
        f"{r['statements']} statements  classes {m['classes']}  IL {m['metrics']['il']}  "
        f"stars {m['metrics']['stars']}  {'ok' if m['verified'] else 'NOT VERIFIED'}  {m['assignment'][:12]}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.million", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(CASES), help="comma-separated cases")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="an older checkout to measure alongside this one")
    parser.add_argument("--steps", action="store_true", help="print each run's slowest statement templates")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--source", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.source)))
        return 0
    if not (ADULT / "adult.csv").exists():
        print(f"{ADULT} is absent", file=sys.stderr)
        return 2
    source = cached_table()
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    checkouts = {"after": ROOT} if args.compare is None else {"before": args.compare.resolve(), "after": ROOT}
    for checkout in checkouts.values():
        compile_tree(checkout)
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {c: {n: [] for n in names} for c in checkouts}
    for _ in range(args.repeat):  # round the cases and checkouts: a slow minute costs one run of each
        for name in names:
            for label, path in checkouts.items():
                r = _subprocess(path, name, source)
                runs[label][name].append(r)
                print(_line(label, r), flush=True)
                if args.steps:
                    print(
                        "       " + ", ".join(f"{t} {ms:.0f} ms" for t, ms in r["steps_ms"][:8]), flush=True
                    )
    best = {c: {n: min(rs, key=lambda r: r["seconds"]) for n, rs in v.items()} for c, v in runs.items()}
    print("\nbest of", args.repeat)
    missed = []
    for name in names:
        for label in checkouts:
            print(_line(label, best[label][name]))
        a = best["after"][name]
        seconds, mib = GOALS[name]
        if a["seconds"] > seconds or (mib is not None and a["peak_rss_mib"] > mib):
            missed.append(name)
    differ = []
    if "before" in runs:
        for name in names:
            b, a = best["before"][name]["release"], best["after"][name]["release"]
            if b != a:
                differ.append(f"{name}: {b} -> {a}")
        print(
            "\n".join(differ)
            if differ
            else "releases identical before and after (assignment, counts, metrics)"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"repeat": args.repeat, "goals": GOALS, "best": best, "runs": runs}, indent=1) + "\n"
    )
    print(f"goals missed: {', '.join(missed)}" if missed else "every goal met")
    return 1 if missed or differ else 0


if __name__ == "__main__":
    sys.exit(main())
