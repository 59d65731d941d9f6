"""The pipeline's fixed cost, before and after a change, in one run (issue 53): TP on Adult (30,162 rows,
7 QIs age, sex, race, marital-status, education, native-country, workclass; SA occupation), l = 4.

Each tree (``--before REF``, a commit, exported to a temporary directory; the working tree as "after")
runs in processes of its own, alternating, ``--repeat`` times: a process loads Adult into an in-memory
DuckDB, then anonymizes twice (the first call pays the imports and template loading a command pays; the
second is warm). Per call: ``seconds`` (the whole pipeline: write, verify, metrics), the algorithm's own
seconds, their difference, the fixed cost, and the call's CPU seconds (less sensitive to the machine's
load than the wall clock). Best of ``--repeat`` per figure; the load average is recorded beside them. Writes
bench/results/house_cost.json.

    python -m bench.house_cost [--before 9127104] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult" / "adult.csv"
QI = ["age", "sex", "race", "marital-status", "education", "native-country", "workclass"]
SA = "occupation"
L = 4

_WORKER = """
import json, sys, time
t0 = time.perf_counter()
import ldiv_db
db = ldiv_db.Database.open(":memory:")
ldiv_db.load(db, sys.argv[1], "adult", sep=";")
out = []
for _ in range(2):
    c0 = time.process_time()
    r = ldiv_db.anonymize(db, "adult", json.loads(sys.argv[2]), sys.argv[3], algorithm="tp", l=int(sys.argv[4]),
                          output="bench_house_out", replace=True)
    cpu = time.process_time() - c0  # every thread of the process (DuckDB's too)
    alg = float(r.details.get("algorithm_seconds", 0.0))
    out.append({"seconds": r.seconds, "algorithm_seconds": alg, "fixed": r.seconds - alg, "cpu_seconds": cpu,
                "queries": r.queries})
print(json.dumps({"calls": out, "file": ldiv_db.__file__}))
"""


def _export(ref: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def _one(tree: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, "-c", _WORKER, str(ADULT), json.dumps(QI), SA, str(L)]
    done = subprocess.run(args, cwd=tree, env=env, check=True, capture_output=True, text=True)
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(out["file"]).resolve().is_relative_to(tree.resolve()), out["file"]
    return out


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, call in enumerate(("first_call", "warm_call")):
        out[call] = {
            k: round(min(r["calls"][i][k] for r in runs), 4)
            for k in ("seconds", "algorithm_seconds", "fixed", "cpu_seconds")
        }
        out[call]["queries"] = runs[0]["calls"][i]["queries"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default="9127104", help="the commit measured as 'before'")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="ldiv_house_") as tmp:
        trees = {"before": _export(a.before, Path(tmp)), "after": ROOT}
        runs: dict[str, list[dict[str, Any]]] = {k: [] for k in trees}
        for _ in range(a.repeat):
            for name, tree in trees.items():
                runs[name].append(_one(tree))
    result = {
        "workload": f"TP on Adult, {len(QI)} QIs, l = {L}, best of {a.repeat}",
        "before": a.before,
        **{name: _best(r) for name, r in runs.items()},
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": {"start": load_before, "end": os.getloadavg()},
    }
    (ROOT / "bench" / "results" / "house_cost.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"{result['workload']} (seconds; fixed = pipeline minus the algorithm; cpu = the call's CPU)")
    print(f"load average {result['load_average']}")
    print(f"{'':8} {'call':6} {'seconds':>8} {'algorithm':>10} {'fixed':>8} {'cpu':>8}")
    for name in trees:
        for call in ("first_call", "warm_call"):
            r = result[name][call]
            print(
                f"{name:8} {call[:5]:6} {r['seconds']:8.3f} {r['algorithm_seconds']:10.3f} {r['fixed']:8.3f}"
                f" {r['cpu_seconds']:8.3f}"
            )


if __name__ == "__main__":
    main()
