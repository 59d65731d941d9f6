"""BSGI at scale (issue 57 item 3): the refined BSGI (the default) on the amplified Adult at 1M and 3M rows,
the issue's case (the engines bench's ``bsgi``): QIs age, education, native-country, workclass,
marital-status, SA occupation, l = 4, ``kl = false``.

Each run is a process of its own on a DuckDB file the table was loaded into beforehand (by another
process), so its peak memory is the run's: wall and CPU seconds of the ``anonymize`` call (CPU: every
thread of the process and of its waited-for children, ``resource.getrusage``), the process's peak RSS
(``VmHWM``) and over all its processes (where the exchange forks a helper: the sum of their PSS, sampled
every 0.25 s while it runs), the load average, and
per phase (SQL preparation, fetch, greedy, starts, exchange passes, write, verification and metrics) its
seconds and the highest RSS sampled during it (every 10 ms). ``--before REF`` runs a commit (exported to a
temporary directory) beside the working tree, alternating, in the same run, so the two see the same load;
IL, classes and DM are printed for both (the same release = the same figures). ``--seed N`` runs the
user's seeded BSGI (``ldiv anonymize --seed N``: the greedy's first picks random, BSGI Fig. 2 line 4)
instead of the default's first picks by row id.

The amplified tables are Parquet files built once by ``bench.amplify`` (seed 7) and cached under
``~/.cache/ldiv_db/bsgi_scale`` (with the loaded DuckDB files), never in the repository.

    python -m bench.bsgi_scale --rows 1000000 [--rows 3000000] [--before 4579ba3] [--after REF] [--repeat 3]
                               [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

from bench.bytecode import compile_tree

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "ldiv_db" / "bsgi_scale"
RESULTS = ROOT / "bench" / "results" / "bsgi_scale.json"
QI = ["age", "education", "native-country", "workclass", "marital-status"]
SA = "occupation"
L = 4
SEED = 20261126

# (module, attribute path, phase): the functions timed and sampled, where the tree has them
PHASES = [
    ("ldiv_db.algorithms.bsgi", "Bsgi._prepare", "sql_prepare"),
    ("ldiv_db.algorithms.bsgi.refine.parts", "planned", "parts_plan"),
    ("ldiv_db.algorithms.bsgi", "Bsgi.fetch", "fetch"),
    ("ldiv_db.algorithms.bsgi", "Bsgi._group", "greedy"),
    ("ldiv_db.algorithms.bsgi.refine.starts", "build", "starts"),
    ("ldiv_db.algorithms.bsgi.refine.exchange", "Refiner.run", "exchange"),
    ("ldiv_db.algorithms.bsgi", "Bsgi._write", "write_assignment"),
    ("ldiv_db.pipeline.opaque", "publish_ids", "opaque_ids"),
    ("ldiv_db.pipeline.one_table", "OneTable.prepare", "labels"),
    ("ldiv_db.pipeline.one_table", "OneTable.write", "write_release"),
    ("ldiv_db.pipeline.one_table", "OneTable.reconcile", "verify_and_metrics"),
    ("ldiv_db.pipeline.one_table", "OneTable.link", "link_rows"),
]


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0
    return 0.0


def _children() -> list[int]:
    """This process's child processes (a forked helper of the exchange: ``refine/helper.py``)."""
    out: list[int] = []
    for task in Path("/proc/self/task").iterdir():
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def _pss_mib(pid: int | str) -> float:
    """A process's proportional set size: its pages, each shared page divided among the processes holding
    it, so the sum over processes counts every page once."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def worker(db_path: str, table: str, seed: int | None = None) -> dict[str, Any]:
    """One run in this process (``--worker``): the phases wrapped, RSS sampled, the call timed."""
    import functools
    import importlib
    import resource
    import threading

    import pandas  # noqa: F401  # before the clock: the run's frame library, as `import ldiv_db` loaded it

    import ldiv_db
    from ldiv_db.pipeline import opaque

    # the run's private seed fixed, as the tests fix it: the same release for the same code
    opaque.run_seed = lambda given: SEED if given is None else given  # type: ignore[assignment]
    spans: list[tuple[str, float, float, float, float]] = []
    samples: list[tuple[float, float]] = []
    main = threading.main_thread()
    con: list[Any] = []

    def duckdb_mib() -> float:
        """DuckDB's own memory (its buffer pool), read between statements on the main thread."""
        if not con or threading.current_thread() is not main:
            return 0.0
        return (
            float(con[0].execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchall()[0][0])
            / 2**20
        )

    def cpu() -> float:
        """This process's CPU seconds and its waited-for children's (a helper counts once it ended)."""
        ru, rc = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return ru.ru_utime + ru.ru_stime + rc.ru_utime + rc.ru_stime

    def wrap(phase: str, fn: Any) -> Any:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0, c0 = time.perf_counter(), cpu()
            try:
                return fn(*args, **kwargs)
            finally:
                spans.append((phase, t0, time.perf_counter(), cpu() - c0, duckdb_mib()))

        return timed

    for module, path, phase in PHASES:
        try:
            owner: Any = importlib.import_module(module)
        except ImportError:
            continue
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part, None)
        if owner is not None and hasattr(owner, name):
            setattr(owner, name, wrap(phase, getattr(owner, name)))

    stop = threading.Event()

    together: list[float] = []  # while a child runs, every 0.25 s: PSS of this process and its children

    def sample() -> None:
        tick = 0
        while not stop.is_set():
            samples.append((time.perf_counter(), _rss_mib()))
            tick += 1
            if tick % 25 == 0 and (kids := _children()):
                together.append(_pss_mib("self") + sum(_pss_mib(k) for k in kids))
            stop.wait(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    with ldiv_db.Database.open(db_path) as db:
        con.append(db.con)
        base = _rss_mib()
        Path("/proc/self/clear_refs").write_text("5")  # VmHWM from here: the run's peak, not the open's
        sampler.start()
        c0, t0 = cpu(), time.perf_counter()
        seeded: dict[str, Any] = {} if seed is None else {"seed": seed}
        r = ldiv_db.anonymize(
            db, table, QI, SA, algorithm="bsgi", l=L, output="bench_bsgi", replace=True, kl=False, **seeded
        )
        wall, c1 = time.perf_counter() - t0, cpu()
        stop.set()
        sampler.join()
    phases: dict[str, dict[str, float]] = {}
    for phase, a, b, c, duck in spans:
        p = phases.setdefault(phase, {"seconds": 0.0, "cpu_seconds": 0.0, "calls": 0, "peak_rss_mib": 0.0})
        p["seconds"] += b - a
        p["cpu_seconds"] += c
        p["calls"] += 1
        p["duckdb_mib_after"] = round(duck, 1)
        inside = [m for t, m in samples if a <= t <= b]
        p["peak_rss_mib"] = max(p["peak_rss_mib"], max(inside, default=0.0))
    for p in phases.values():
        p["seconds"], p["cpu_seconds"] = round(p["seconds"], 2), round(p["cpu_seconds"], 2)
        p["peak_rss_mib"] = round(p["peak_rss_mib"], 1)
    refine = r.details.get("refine") or {}
    return {
        "file": ldiv_db.__file__,
        "seconds": round(wall, 2),
        "cpu_seconds": round(c1 - c0, 2),
        "peak_rss_mib": round(_peak_mib(), 1),
        # over all processes: the peak RSS, or where a helper ran beside it the sampled sum of PSS
        "peak_all_mib": round(max([_peak_mib(), *together]), 1),
        "helper_samples": len(together),
        "helper_pss_peak_mib": round(max(together, default=0.0), 1),
        "rss_before_mib": round(base, 1),
        "load": round(os.getloadavg()[0], 2),
        "classes": r.classes,
        "il": round(float(r.metrics["il"]), 1),
        "dm": r.metrics.get("dm"),
        "verified": r.verified,
        "refine_il_after": refine.get("il_after"),
        "parts": len(r.details.get("parts") or []),
        "details_seconds": r.details.get("seconds"),
        "phases": phases,
    }


def _export(ref: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def prepared(rows: int) -> tuple[Path, str]:
    """The DuckDB file holding the amplified table of ``rows`` rows with the Adult hierarchies (cached)."""
    from bench.spark_scale import amplified

    CACHE.mkdir(parents=True, exist_ok=True)
    table = f"adult_{rows}"
    db = CACHE / f"{table}.duckdb"
    if not db.exists():
        pq = amplified(CACHE, rows)
        cmd = [
            sys.executable,
            "-m",
            "bench.spark_scale",
            "--load",
            str(pq),
            "--target",
            str(db),
            "--table",
            table,
        ]
        subprocess.run(cmd, cwd=ROOT, check=True)
    return db, table


def run_one(tree: Path, db: Path, table: str, seed: int | None = None) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(db), table]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-5:]}
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(out["file"]).resolve().is_relative_to(tree.resolve()), out["file"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, action="append", help="rows of the amplified table (repeatable)")
    ap.add_argument("--before", help="a commit run beside the working tree, alternating")
    ap.add_argument("--after", help="a commit run as 'after' instead of the working tree")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, help="the user's seed (anonymize's --seed): random first picks")
    ap.add_argument("--worker", nargs=2, metavar=("DB", "TABLE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        db_path, table = args.worker
        print(json.dumps(worker(db_path, table, seed=args.seed)))
        return 0
    results: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"after": _export(args.after, Path(tmp) / "after") if args.after else ROOT}
        if args.before:
            trees = {"before": _export(args.before, Path(tmp) / "before"), **trees}
        for tree in trees.values():
            compile_tree(tree)
        for rows in args.rows or [1_000_000]:
            db, table = prepared(rows)
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
            for _ in range(args.repeat):
                for name, tree in trees.items():
                    res = run_one(tree, db, table, args.seed)
                    runs[name].append(res)
                    print(json.dumps({"rows": rows, "tree": name, "seed": args.seed, **res}), flush=True)
            results[str(rows) if args.seed is None else f"{rows}_seed{args.seed}"] = {
                "before": args.before,
                "after": args.after or "working tree",
                "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "runs": runs,
            }
            RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    if __package__ in (None, "") and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
        del sys.path[0]  # a tree's worker, run as a script: bench/'s modules are not top-level ones
    sys.exit(main())
