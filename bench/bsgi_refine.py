"""Benchmark of issue 17 (BSGI refinement): BSGI as in the paper (``--refine none``), BSGI refined
(``--refine exchange``, the default) and Mondrian on Adult (l = 2..7) and CUP (l = 3, 7), and BSGI refined
on 1,000,000 rows (Adult amplified by bench/amplify.py, seed 7). Writes bench/results/bsgi_refine.json.

    python -m bench.bsgi_refine                  # Adult and CUP
    python -m bench.bsgi_refine --million 2      # also the 1M-row table at l = 2 (own process)
    python -m bench.bsgi_refine --repeat 3       # best of 3 per run

Time = ``AnonymizeResult.seconds`` (the whole pipeline, KL off); every release verified by the pipeline.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ROOT.parent / "shared" / "datasets"
RESULTS = ROOT / "bench" / "results" / "bsgi_refine.json"
CASES: dict[str, dict[str, Any]] = {
    "adult": {
        "file": DATASETS / "adult" / "adult.csv",
        "qi": ["age", "education", "marital-status", "race", "sex", "native-country", "workclass"],
        "sa": "occupation",
        "ls": [2, 3, 4, 5, 6, 7],
    },
    "cup": {
        "file": DATASETS / "cup" / "cup.csv",
        "qi": ["AGE", "GENDER", "INCOME", "STATE", "NGIFTALL", "MINRAMNT"],
        "sa": "RAMNTALL",
        "ls": [3, 7],
    },
}
RUNS = [("bsgi", {"refine": "none"}), ("bsgi", {"refine": "exchange"}), ("mondrian", {})]


def _load(db: Any, name: str) -> None:
    import ldiv_db
    from ldiv_db.taxonomy import import_hierarchy

    case = CASES[name]
    ldiv_db.load(db, case["file"], name, sep=";")
    for c in case["qi"]:
        import_hierarchy(db, name, c, case["file"].parent / f"{name}_hierarchy_{c}.csv")


def _run(
    db: Any, table: str, case: dict[str, Any], algorithm: str, l: int, options: dict[str, Any]
) -> dict[str, Any]:
    import ldiv_db

    c0 = time.process_time()
    r = ldiv_db.anonymize(
        db, table, case["qi"], case["sa"], algorithm=algorithm, l=l, output=f"out_{algorithm}_{l}", replace=True,
        kl=False, **options,
    )  # fmt: skip
    out = {
        "algorithm": algorithm + ("" if not options else f" refine={options['refine']}"),
        "l": l,
        "seconds": round(r.seconds, 3),
        "cpu_seconds": round(time.process_time() - c0, 3),
        "classes": r.groups,
        "il": round(float(r.metrics["il"]), 1),
        "dm": r.metrics["dm"],
        "avg_class_size": round(float(r.metrics["avg_class_size"]), 4),
        "verified": r.verified,
        "refine": r.details.get("refine"),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1),
    }
    print(json.dumps(out), file=sys.stderr, flush=True)
    return out


def case(name: str, repeat: int) -> list[dict[str, Any]]:
    from ldiv_db.db import Database

    spec = CASES[name]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Database.open(Path(tmp) / f"{name}.duckdb")
        _load(db, name)
        for l in spec["ls"]:
            for algorithm, options in RUNS:
                runs = [_run(db, name, spec, algorithm, l, options) for _ in range(repeat)]
                best = dict(min(runs, key=lambda r: r["seconds"]))
                best["seconds_all"] = [r["seconds"] for r in runs]
                out.append(best)
        db.close()
    return out


def million(l: int) -> dict[str, Any]:
    from bench.amplify import amplify
    from ldiv_db.db import Database

    spec = CASES["adult"]
    with tempfile.TemporaryDirectory() as tmp:
        db = Database.open(Path(tmp) / "million.duckdb")
        _load(db, "adult")
        amplify(db.con, "adult", "adult_1m", 1_000_000, seed=7)
        from ldiv_db.taxonomy import import_hierarchy

        for c in spec["qi"]:
            import_hierarchy(db, "adult_1m", c, spec["file"].parent / f"adult_hierarchy_{c}.csv")
        result = _run(db, "adult_1m", spec, "bsgi", l, {"refine": "exchange"})
        db.close()
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--million", type=int, help="also BSGI refined on 1M rows at this l")
    parser.add_argument("--only", choices=sorted(CASES), help="one dataset")
    args = parser.parse_args(argv)
    results: dict[str, Any] = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    for name in [args.only] if args.only else list(CASES):
        results[name] = case(name, args.repeat)
    if args.million:
        results["million"] = million(args.million)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
