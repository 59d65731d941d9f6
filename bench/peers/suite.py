"""The peers suite of ``make bench`` (issue 57): ldiv_db beside the reference tool (ARX 3.9.2, the user's,
Java API, warm: every workload repeated in one JVM), pycanon and anjana, in one run.

Workloads (Adult: the 8 QIs of ../shared/datasets/README.md, SA occupation, ARX's hierarchies):

* optimal full-domain on Adult, distinct-3 / entropy-3 / recursive (4,3) at 5 % (ARX: Flash, Loss gs = 0.5;
  ldiv_db: the whole ``anonymize`` call, write and verification included): seconds and the optima;
* optimal on an IHIS-shaped 1,193,504-row table (bench/peers/data.py), recursive (4,3) at 0 % and 5 %;
  with ``--large`` only (ARX takes tens of seconds a run);
* check statistics, recursive (4,3), in-process, on 1M rows (Adult amplified) and on Adult: ARX's one
  node (every QI at level 0) plus its class statistics, pycanon's k-anonymity and l-diversity (on 1M rows
  with ``--large`` only: minutes), ldiv_db's ``check``;
* optimal against anjana on Adult, distinct-3 at 5 %: seconds, and the NCP of both releases by
  ldiv_db's metric (and whether anjana's release holds distinct-3 by ldiv_db's check).

Best of ``--repeat`` (3) warm runs for ARX, pycanon and ldiv_db; anjana runs once. Prints one table
(workload, peer seconds, ldiv_db seconds, ratio = ldiv_db / peer, whether the answers agree), with CPU
seconds and the load average; writes bench/results/peers.json (with ``--only``, over the last file:
the other workloads keep their rows). A peer that is absent (Java, the ARX build, the Python peers' venv)
is skipped with a message naming the command that provides it; building
happens only with ``--build`` (the project's ARX programs compiled against the jars named by
``ARX_CLASSPATH``, and a venv for pycanon and anjana from the
``peers`` extra of pyproject.toml, kept apart because both pin numpy and pandas below ldiv_db's).
Exit 1 only when an ldiv_db release fails verification or an optimum is worse than the peer's.

  python -m bench.peers [--build] [--large] [--repeat 3] [--only KINDS_OR_KEYS] [--arx-timeout 900]
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

from bench.peers import data, report
from bench.peers.ours import Dataset
from bench.peers.tools import (
    PEERS_PYTHON,
    Workload,
    arx_unavailable,
    build,
    python_peers_unavailable,
    run_arx,
)

ROOT = data.ROOT
ADULT = data.DATASETS / "adult"
RESULTS = ROOT / "bench" / "results" / "peers.json"

WORKLOADS = [
    Workload("optimal_adult_distinct", "optimal, Adult 8 QIs, distinct-3 at 5 %", "optimal", "adult", "distinct", 3),
    Workload("optimal_adult_entropy", "optimal, Adult 8 QIs, entropy-3 at 5 %", "optimal", "adult", "entropy", 3),
    Workload("optimal_adult_recursive", "optimal, Adult 8 QIs, recursive (4,3) at 5 %", "optimal", "adult",
             "recursive", 3, 4),
    Workload("optimal_ihis_0", "optimal, IHIS-shaped 1.19M, recursive (4,3) at 0 %", "optimal", "ihis",
             "recursive", 3, 4, limit=0.0, large=True),
    Workload("optimal_ihis_5", "optimal, IHIS-shaped 1.19M, recursive (4,3) at 5 %", "optimal", "ihis",
             "recursive", 3, 4, large=True),
    Workload("check_million", "check statistics, 1M rows, recursive (4,3), in-process", "check", "million",
             "recursive", 3, 4),
    Workload("check_adult", "check statistics, Adult, recursive (4,3), in-process", "check", "adult",
             "recursive", 3, 4),
    Workload("anjana_adult", "optimal vs anjana, Adult, distinct-3 at 5 %", "anjana", "adult", "distinct", 3),
]  # fmt: skip


def datasets(needed: set[str]) -> dict[str, Dataset]:
    """The datasets the chosen workloads read; the large ones are made once into the cache."""
    out = {}
    adult_prefix = str(ADULT / "adult_hierarchy_")
    if "adult" in needed:
        out["adult"] = Dataset("adult", ADULT / "adult.csv", adult_prefix, data.ADULT_QI, "occupation")
    if "million" in needed:
        out["million"] = Dataset("adult_1m", data.adult_million(), adult_prefix, data.ADULT_QI, "occupation")
    if "ihis" in needed:
        prefix = str(data.DATASETS / "ihis" / "ihis_hierarchy_")
        out["ihis"] = Dataset("ihis", data.ihis_shaped(), prefix, data.IHIS_QI, data.IHIS_SA)
    return out


def chosen(only: str | None, large: bool) -> list[Workload]:
    """The workloads of the kinds or keys named (all kinds by default); the large ones with ``large``."""
    names = set(only.split(",")) if only else {"optimal", "check", "anjana"}
    return [w for w in WORKLOADS if (w.kind in names or w.key in names) and (large or not w.large)]


def run_ours(
    workloads: list[Workload], sets: dict[str, Dataset], repeat: int, workdir: Path, peers: dict[str, Any]
) -> dict[str, Any]:
    """ldiv_db's figures per workload key, each dataset loaded once into its own DuckDB file; a release
    anjana wrote is measured there too (its NCP and verdict by ldiv_db, added to anjana's figures)."""
    from bench.peers import ours

    out: dict[str, Any] = {}
    for name, ds in sets.items():
        mine = [w for w in workloads if w.dataset == name]
        if not mine:
            continue
        db = ours.open_dataset(workdir, ds)
        try:
            for w in mine:
                load = os.getloadavg()[0]
                if w.kind == "check":
                    r = ours.check(db, ds, w.model, w.l, w.c, repeat)
                else:
                    r = ours.optimal(db, ds, w.model, w.l, w.c, w.limit, repeat)
                r["load"] = round(load, 2)
                out[w.key] = r
                if w.kind == "anjana" and w.key in peers:
                    release = workdir / "anjana_release.csv"
                    peers[w.key]["measured"] = ours.foreign_release(db, ds, release, w.model, w.l)
                print(f"ldiv_db {w.key}: {json.dumps(r)}", flush=True)
        finally:
            db.close()
    return out


def run_python_peers(
    workloads: list[Workload], sets: dict[str, Dataset], repeat: int, large: bool, workdir: Path
) -> dict[str, Any]:
    """pycanon's check figures and anjana's run, each in the peers' venv (one process per workload)."""
    out: dict[str, Any] = {}
    for w in workloads:
        ds = sets[w.dataset]
        if w.kind == "check" and (w.dataset == "adult" or large):
            args = [
                "pycanon",
                str(ds.csv),
                ",".join(ds.qi),
                ds.sa,
                str(repeat if w.dataset == "adult" else 1),
            ]
        elif w.kind == "anjana":
            release = workdir / "anjana_release.csv"
            args = ["anjana", str(ds.csv), ",".join(ds.qi), ds.sa, str(w.l), str(w.limit * 100), ds.prefix,
                    str(release)]  # fmt: skip
        else:
            continue
        load = os.getloadavg()[0]
        run = subprocess.run(
            [str(PEERS_PYTHON), str(Path(__file__).with_name("python_peers.py")), *args],
            capture_output=True, text=True, timeout=3600,
        )  # fmt: skip
        if run.returncode != 0:
            print(f"{args[0]} {w.key}: failed ({run.returncode}): {run.stderr.strip()[-500:]}", flush=True)
            continue
        r = json.loads(run.stdout.strip().splitlines()[-1])
        r["load"] = round(load, 2)
        out[w.key] = r
        print(f"{args[0]} {w.key}: {json.dumps(r)}", flush=True)
    return out


def merged(result: dict[str, Any]) -> dict[str, Any]:
    """A run of some workloads (``--only``) written over the last results file: its workloads replace
    theirs, the others are kept as they were measured (each row keeps its own load)."""
    try:
        last = json.loads(RESULTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return result
    keys = {r["key"] for r in result["rows"]}
    rows = [r for r in last.get("rows", []) if r.get("key") not in keys] + result["rows"]
    out = dict(result, rows=rows, partial_runs=[*last.get("partial_runs", []), result["started"]])
    for part in ("arx", "python_peers", "ldiv_db"):
        out[part] = {**{k: v for k, v in last.get(part, {}).items() if k not in keys}, **result[part]}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.peers", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    ap.add_argument("--build", action="store_true", help="build ARX and the Python peers' venv first")
    ap.add_argument("--large", action="store_true", help="add the IHIS-shaped table and pycanon on 1M rows")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="comma-separated kinds (optimal, check, anjana) or workload keys")
    ap.add_argument("--arx-timeout", type=float, default=900, help="seconds for ARX on one large workload")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error(f"--repeat {args.repeat}: give 1 or more runs to take the best of")
    workloads = chosen(args.only, args.large)
    if not workloads:
        keys = ", ".join(w.key for w in WORKLOADS)
        ap.error(f"--only {args.only}: no workload (add --large for the IHIS-shaped ones); kinds: optimal, "
                 f"check, anjana; keys: {keys}")  # fmt: skip
    if not (ADULT / "adult.csv").exists():
        print(f"skipped: {ADULT} is not available")
        return 0
    if args.build:
        build()
    sets = datasets({w.dataset for w in workloads})
    arx_reason, py_reason = arx_unavailable(), python_peers_unavailable()
    for tool, reason in (("ARX", arx_reason), ("pycanon and anjana", py_reason)):
        if reason:
            print(f"skip {tool}: {reason}", flush=True)
    started, load0 = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), os.getloadavg()
    arx_work = [w for w in workloads if w.kind != "anjana"]
    arx = {} if arx_reason else run_arx(arx_work, sets, args.repeat, args.arx_timeout)
    with tempfile.TemporaryDirectory() as tmp:
        py = {} if py_reason else run_python_peers(workloads, sets, args.repeat, args.large, Path(tmp))
        ours = run_ours(workloads, sets, args.repeat, Path(tmp), py)
    rows = report.rows(workloads, arx, py, ours)
    load1 = os.getloadavg()
    print(report.render(rows, started, load0, load1))
    result = {
        "started": started, "load_average_start": load0, "load_average_end": load1, "repeat": args.repeat,
        "python": platform.python_version(), "skipped": {"arx": arx_reason, "python_peers": py_reason},
        "rows": rows, "arx": arx, "python_peers": py, "ldiv_db": ours,
    }  # fmt: skip
    RESULTS.write_text(json.dumps(merged(result) if args.only else result, indent=2) + "\n", encoding="utf-8")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
