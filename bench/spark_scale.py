"""Spark at scale (issue 14): the amplified Adult (bench/amplify.py, seed 7) at --rows rows on DuckDB and
on Spark ``local[2]``: ``check`` (7 QIs, recursive c = 4, l = 3), ``tp+`` (d = 5, l = 4), ``lplus``
(6 QIs, DM / allRec, l = 4) and ``bsgi`` (5 QIs, l = 4), anonymize runs with ``kl = false``.

Per case, in a process of its own (so its peak memory is its own): wall-clock seconds of the API call,
statements sent, rows fetched into Python (``Database.rows_fetched``), the Python process's peak memory
(``VmHWM``) and, on Spark, the driver JVM's peak resident memory (``VmHWM``; in local mode the
executors are threads of that JVM). A case that passes --timeout is killed and recorded as such.

The table reaches Spark as a Parquet file DuckDB writes (with the row id column ``ldiv_rowid`` that
``ldiv load`` adds on Spark) and ``CREATE TABLE ... USING parquet`` — where a data lake's table already
lives; ``ldiv load`` on Spark would pass the whole file through the driver. Results are written to
--out after every case, so an interrupted run keeps what completed.

    nice python -m bench.spark_scale --rows 10000000 [--engines duckdb,spark] [--cases check,tp+,lplus,bsgi]

``--adult`` (issue 52/57, decision 0022): the user's path on Adult with DEFAULT driver memory, ``ldiv
load`` then ``ldiv anonymize --algorithm mondrian`` (QIs age, sex, race, SA occupation, l = 4) and
``tp+`` (the same, the issue's case), each a CLI process of its own on one fresh warehouse, timed end to
end: wall seconds, CPU seconds of the process and its driver JVM, the load average. Then the same steps
through the API, each in a process of its own on another fresh warehouse, with the profile of
``bench/spark_profile.py``: imports, the session's start in its parts (JVM and py4j, SparkSession, the
first catalog call that starts the metastore, the migrations check) and every call on Spark by name
(statements, seconds, rows), largest first; what is left of a step is Python. ``--steps`` picks steps.
The CLI runs the ``ldiv_db`` of this checkout (``PYTHONPATH``), so a copy of another revision with these
bench files measures that revision: run both in one go for a before/after at the same load.

    python -m bench.spark_scale --adult [--repeat 3] [--steps load,mondrian] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.engines import ADULT, HIERARCHIES, QI7, ROOT, SA
from bench.engines import CASES as ENGINE_CASES
from bench.memory import own_peak_mib

# the engines bench's table, hierarchies and cases; lplus here with DM / allRec
CASES: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    **ENGINE_CASES,
    "lplus": ("lplus", QI7[:6], {"l": 4, "metric": "dm", "suppression": "allrec"}),
}
SPARK_CONF = "spark.driver.memory=4g"


def spark_url(work: Path) -> str:
    return f"spark://local[2]?warehouse={work / 'warehouse'}&{SPARK_CONF}"


def _jvm_peak_mib(db: Any) -> float | None:
    """The driver JVM's peak resident memory (Linux ``VmHWM``), when the session runs in a local JVM."""
    try:
        pid = db.spark.sparkContext._gateway.proc.pid
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024.0, 1)
    except (AttributeError, OSError, ValueError):
        return None
    return None


def case(name: str, target: str, table: str) -> dict[str, Any]:
    import ldiv_db

    kind, qi, kwargs = CASES[name]
    check, anonymize = ldiv_db.check, ldiv_db.anonymize  # imported before the clock (bench/engines.py)
    with ldiv_db.Database.open(target, mode="read" if kind == "check" else "write") as db:
        q0, f0 = db.queries, db.rows_fetched
        t0 = time.perf_counter()
        if kind == "check":
            check(db, table, qi, SA, **kwargs)
        else:
            out = f"bench_{kind.replace('+', 'p')}"
            r = anonymize(db, table, qi, SA, algorithm=kind, output=out, replace=True, kl=False, **kwargs)
            assert r.verified
        res: dict[str, Any] = {
            "seconds": round(time.perf_counter() - t0, 3),
            "statements": db.queries - q0,
            "rows_fetched": db.rows_fetched - f0,
        }
        jvm = _jvm_peak_mib(db) if target.startswith("spark://") else None
    res["peak_mib"] = own_peak_mib()
    if jvm is not None:
        res["jvm_peak_mib"] = jvm
    return res


def amplified(work: Path, rows: int) -> Path:
    """The amplified table as a Parquet file with the row id column (built once per --work)."""
    import duckdb

    from bench.amplify import amplify, load_adult

    pq = work / f"adult_{rows}.parquet"
    if not pq.exists():
        con = duckdb.connect(str(work / "amp.duckdb"))
        load_adult(con, ADULT / "adult.csv", "adult")
        amplify(con, "adult", "amp", rows, seed=7)
        con.execute(f"COPY (SELECT *, rowid AS ldiv_rowid FROM amp) TO '{pq}' (FORMAT parquet)")
        con.execute("DROP TABLE amp")
        con.close()
    return pq


def load(target: str, table: str, pq: Path) -> None:
    """The Parquet file as ``table`` on the target, with the eight Adult hierarchies."""
    import ldiv_db
    from ldiv_db import taxonomy

    with ldiv_db.Database.open(target) as db:
        if target.startswith("spark://"):
            db.spark.sql(f"DROP TABLE IF EXISTS default.{table}")
            db.spark.sql(f"CREATE TABLE default.{table} USING parquet AS SELECT * FROM parquet.`{pq}`")
        else:
            db.execute_script("bench_load", f"CREATE OR REPLACE TABLE main.{table} AS FROM '{pq}'")
            db.execute_script("bench_load", f"ALTER TABLE main.{table} DROP COLUMN ldiv_rowid")
        for col in HIERARCHIES:
            taxonomy.import_hierarchy(db, table, col, ADULT / f"adult_hierarchy_{col}.csv")


def _sub(args: list[str], timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """A step in a process of its own (Spark's embedded metastore admits one process at a time)."""
    cmd = [sys.executable, "-m", "bench.spark_scale", *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False, timeout=timeout)


def _run(name: str, engine: str, target: str, table: str, timeout: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    try:
        out = _sub(["--case", name, "--target", target, "--table", table], timeout)
    except subprocess.TimeoutExpired:
        return {"case": name, "engine": engine, "error": f"not finished after {timeout:.0f} s (killed)"}
    if out.returncode:
        return {"case": name, "engine": engine, "error": out.stderr.strip().splitlines()[-1:]}
    res = json.loads(out.stdout.strip().splitlines()[-1])
    return {"case": name, "engine": engine, "process_s": round(time.perf_counter() - t0, 1), **res}


ADULT_QI, ADULT_SA = "age,sex,race", "occupation"
ADULT_STEPS = {
    "load": ["load", "{db}", str(ADULT / "adult.csv"), "--table", "adult", "--replace"],
    "mondrian": ["anonymize", "{db}", "--table", "adult", "--qi", ADULT_QI, "--sa", ADULT_SA,
                 "--algorithm", "mondrian", "--l", "4", "--output", "adult_mondrian", "--replace", "--quiet"],
    "tp+": ["anonymize", "{db}", "--table", "adult", "--qi", ADULT_QI, "--sa", ADULT_SA,
            "--algorithm", "tp+", "--l", "4", "--output", "adult_tpp", "--replace", "--quiet"],
}  # fmt: skip


def _load() -> list[float]:
    import os

    return [round(x, 2) for x in os.getloadavg()]


def _timed(cmd: list[str]) -> tuple[float, float, int, str]:
    """Wall and CPU seconds of a command and of the processes it started (the driver JVM of a local
    session, which nobody waits for, so RUSAGE_CHILDREN misses it: sampled from /proc every 0.2 s
    while the command runs), its exit status and its stderr."""
    import os
    import tempfile

    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's ldiv_db (bench/README: before/after)
    seen: dict[int, float] = {}
    with tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, text=True, cwd=ROOT, env=env)
        while True:
            try:
                proc.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                for pid in _children(proc.pid):
                    seen[pid] = max(seen.get(pid, 0.0), _cpu_of(pid))
        wall = time.perf_counter() - t0
        err.seek(0)
        text = err.read()
    return wall, _children_cpu() + sum(seen.values()), proc.returncode, text


_CPU_SEEN = [0.0]


def _children_cpu() -> float:
    """CPU seconds of the waited-for children that ended since the last call."""
    import resource

    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = u.ru_utime + u.ru_stime
    new, _CPU_SEEN[0] = total - _CPU_SEEN[0], total
    return new


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    return out


def _cpu_of(pid: int) -> float:
    import os

    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def adult_cli(work: Path, steps: list[str]) -> dict[str, Any]:
    """Each step as the user runs it (``ldiv ...``, a process of its own), on a fresh warehouse: wall and
    CPU seconds (the process and its driver JVM) and the load average before and after."""
    import shutil

    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    url = f"spark://local[2]?warehouse={work / 'warehouse'}"
    ldiv = str(Path(sys.executable).with_name("ldiv"))
    out: dict[str, Any] = {"load_before": _load()}
    _children_cpu()
    for step in steps:
        wall, cpu, code, err = _timed([ldiv, *(a.replace("{db}", url) for a in ADULT_STEPS[step])])
        out[f"{step}_s"] = round(wall, 1)
        out[f"{step}_cpu_s"] = round(cpu, 1)
        if code:
            out[f"{step}_error"] = f"exit {code}: {err.strip().splitlines()[-40:]}"  # the Java trace too
    out["load_after"] = _load()
    return out


def adult_profile(work: Path, step: str) -> dict[str, Any]:
    """One step through the API in this process (the CLI's step, same warehouse): imports, the session's
    start in its parts, and every call on Spark by name (statements, seconds, rows), largest first; the
    rest of the step is Python. CPU: this process and its driver JVM."""
    import resource

    from bench import spark_profile

    t0 = time.perf_counter()
    import ldiv_db

    t_import = time.perf_counter() - t0
    prof = spark_profile.install()
    url = f"spark://local[2]?warehouse={work / 'warehouse'}"
    t1 = time.perf_counter()
    db = ldiv_db.Database.open(url)
    t_open = time.perf_counter() - t1
    opening = list(prof.calls)
    prof.calls.clear()
    t2 = time.perf_counter()
    if step == "load":
        ldiv_db.load(db, ADULT / "adult.csv", "adult", replace=True)
    else:
        ldiv_db.anonymize(db, "adult", ADULT_QI.split(","), ADULT_SA, algorithm=step, l=4,
                          output=f"adult_{step.replace('+', 'p')}", replace=True)  # fmt: skip
    t_step = time.perf_counter() - t2
    jvm_cpu = spark_profile.jvm_cpu_s(db)
    jvm_threads = spark_profile.jvm_threads(db)
    db.close()
    statements = prof.calls
    on_spark = sum(s for _, s, _ in statements)
    me = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "step": step,
        "load_avg": _load(),
        "import_s": round(t_import, 2),
        "session": spark_profile.open_split(t_open, opening),
        "open_calls": prof.by_name(opening),
        "step_s": round(t_step, 2),
        "step_calls": len(statements),
        "step_on_spark_s": round(on_spark, 2),
        "step_python_s": round(t_step - on_spark, 2),
        "cpu_python_s": round(me.ru_utime + me.ru_stime, 1),
        "cpu_jvm_s": None if jvm_cpu is None else round(jvm_cpu, 1),
        "cpu_jvm_threads_s": jvm_threads,
        "by_name": prof.by_name(),
    }


def adult(args: argparse.Namespace) -> dict[str, Any]:
    """``--adult``: the CLI runs (each on a fresh warehouse), then the profiles (on another fresh one)."""
    import shutil

    steps = args.steps.split(",")
    runs = []
    for _ in range(args.repeat):
        runs.append(adult_cli(args.work / "adult", steps))
        print(json.dumps({"cli": runs[-1]}), flush=True)
    work = args.work / "adult_profile"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    profiles = []
    for step in steps:
        done = _sub(["--profile", step, "--work", str(work)])
        if done.returncode:
            profiles.append({"step": step, "error": done.stderr[-800:]})
        else:
            profiles.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(json.dumps(profiles[-1]), flush=True)
    return {"cli": runs, "profiles": profiles}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.spark_scale")
    p.add_argument("--case")
    p.add_argument("--target")
    p.add_argument("--table")
    p.add_argument("--load", type=Path, help="load this Parquet file as --table on --target")
    p.add_argument("--rows", type=int, default=10_000_000)
    p.add_argument("--engines", default="duckdb,spark")
    p.add_argument("--cases", default=",".join(CASES), help="comma-separated subset of " + ", ".join(CASES))
    p.add_argument("--order", default="case", choices=["case", "engine"], help="case: both engines per case")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds per case")
    p.add_argument("--work", type=Path, default=Path("/tmp/ldiv_spark_scale"))
    p.add_argument("--out", type=Path)
    p.add_argument("--adult", action="store_true", help="load + mondrian + tp+ of Adult, CLI and profile")
    p.add_argument("--profile", help="(internal) profile one --adult step in this process")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument(
        "--steps", default=",".join(ADULT_STEPS), help="--adult: the steps, of load, mondrian, tp+"
    )
    args = p.parse_args(argv)
    if args.profile:
        print(json.dumps(adult_profile(args.work, args.profile)))
        return 0
    if args.adult:
        result = adult(args)
        if args.out:
            args.out.write_text(json.dumps(result, indent=2) + "\n")
        return 0
    if args.case:
        print(json.dumps(case(args.case, args.target, args.table)))
        return 0
    if args.load:
        load(args.target, args.table, args.load)
        return 0
    if not (ADULT / "adult.csv").exists():
        print(f"skipped: {ADULT} not found", file=sys.stderr)
        return 0
    out = args.out or ROOT / "bench" / "results" / f"spark_scale_{args.rows}.json"
    args.work.mkdir(parents=True, exist_ok=True)
    engines = args.engines.split(",")
    table = f"adult_{args.rows}"
    targets = {"duckdb": str(args.work / f"{table}.duckdb"), "spark": spark_url(args.work)}
    t0 = time.perf_counter()
    pq = amplified(args.work, args.rows)
    info: dict[str, Any] = {"table": table, "amplify_s": round(time.perf_counter() - t0, 1)}
    for engine in engines:
        t0 = time.perf_counter()
        done = _sub(["--load", str(pq), "--target", targets[engine], "--table", table])
        if done.returncode:
            raise SystemExit(f"loading on {engine} failed: {done.stderr.strip().splitlines()[-1:]}")
        info[f"load_{engine}_s"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(info), flush=True)
    results: list[dict[str, Any]] = []
    pairs = [(c, e) for c in args.cases.split(",") for e in engines]
    if args.order == "engine":
        pairs.sort(key=lambda ce: engines.index(ce[1]))
    for name, engine in pairs:
        res = _run(name, engine, targets[engine], table, args.timeout)
        res["rows"] = args.rows
        results.append(res)
        print(json.dumps(res), flush=True)
        out.write_text(json.dumps({"prepare": info, "cases": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
