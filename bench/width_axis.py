"""The width axes (issue 57, "no pathologies"): how each command's time grows, at a fixed row count, with the
number of QIs (``qis``: d = 2, 4, 8, 12, 16), the depth of one QI's hierarchy (``depth``: 2, 4, 8, 12, 16
levels over 4,096 values, written ARX-style and imported), the distinct values of one QI (``domain``: 500 …
4,000), l against a 40-value SA (``l``: 2 … 32) and the SA's distinct values (``sa``: 100, 1,000, 10,000, at
4 × ``--rows``). The rows sweeps (bench/shapes.py, bench/releases_axis.py) leave these axes out.

Each axis point is a DuckDB file of its own (a temporary directory): the table ``t`` (seeded, made here) and
a 200-row table ``w`` of the same columns. Per command, one process (the tree's ``ldiv_db`` first on the
path) runs it on ``w`` (imports, templates and connection warm), then on ``t`` under the clock (wall seconds
of the CLI's ``main``). Commands: ``check`` distinct, entropy and recursive; ``anonymize`` with every
algorithm (distinct, but frequency for tp and hilbert, l+ for lplus; full-domain at level 1 of every QI up to
every row deleted); ``metrics`` and ``report`` of the Mondrian release; ``risk``; ``suggest-l``; ``attack
similarity`` of the TP release (categories: a hash of the SA value mod 3); ``compose`` of the Mondrian and
BSGI releases. A call over ``--timeout`` seconds is shown ``>T``, and the command skipped at the axis's larger
points; an exit code other than 0 (1 is a check's or compose's verdict) is shown in brackets.

Printed per axis: the seconds at each point and the growth per doubling of the axis between consecutive
points, (t_b / t_a) ** (1 / log2(x_b / x_a)): 2 is linear, 4 quadratic. The lattice searches (optimal,
lplus, full-domain) may grow exponentially in d: their search space does. ``--before DIR`` runs every
point with that tree too, alternating. Writes bench/results/width_axis.json.

    python -m bench.width_axis [--axes qis,depth,domain,l,sa] [--rows 5000] [--timeout 60]
                               [--names 'anonymize bsgi,check distinct'] [--before /work/base26]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "width_axis.json"
POINTS = {
    "qis": [2, 4, 8, 12, 16],
    "depth": [2, 4, 8, 12, 16],
    "domain": [500, 1000, 2000, 4000],
    "l": [2, 4, 8, 16, 32],
    "sa": [100, 1000, 10000],
}
PRIMES = [7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67]
WIDTHS = "4,16,64,256,1048576"  # interval hierarchies of the numeric QIs
WARM_ROWS = 200


@dataclass(frozen=True)
class Spec:
    """One axis point: the SELECT list over the integers i (QIs q1.., SA s), the QIs, l, the rows, and the
    depth of q1's ARX hierarchy (0: every QI gets the interval hierarchy)."""

    select: str
    qis: list[str]
    l: int
    rows: int
    depth: int = 0


def spec(axis: str, x: int, rows: int) -> Spec:
    two = ["q1", "q2"]
    if axis == "qis":  # QI j: 6..13 values, independent enough that many QIs make small classes
        cols = [f"(i * {PRIMES[j]} + {j}) % {6 + j % 8} AS q{j + 1}" for j in range(x)]
        return Spec(", ".join([*cols, "'v' || (i % 13) AS s"]), [f"q{j + 1}" for j in range(x)], 2, rows)
    if axis == "depth":
        return Spec("(i * 7919) % 4096 AS q1, i % 7 AS q2, 'v' || (i % 13) AS s", two, 2, rows, depth=x)
    if axis == "domain":
        return Spec(f"(i * 7919) % {x} AS q1, i % 7 AS q2, 'v' || (i % 13) AS s", two, 2, rows)
    if axis == "l":
        return Spec("i % 37 AS q1, (i * 7) % 23 AS q2, 'v' || ((i * 31) % 40) AS s", two, x, rows)
    if axis == "sa":
        return Spec(f"i % 37 AS q1, (i * 7) % 23 AS q2, 'v' || ((i * 7919) % {x}) AS s", two, 2, 4 * rows)
    raise ValueError(axis)


def arx_rows(values: list[int], depth: int) -> list[list[str]]:
    """An ARX hierarchy of 12-bit values, ``depth`` levels above the value (the last ``*``): level j groups
    by the value's top bits, fewer at each level (levels past 12 bits repeat a grouping, relabelled)."""
    out = []
    for v in values:
        row = [str(v)]
        for j in range(1, depth):
            shift = min(11, round(j * 12 / depth))
            row.append(f"L{j}_{v >> shift}")
        out.append([*row, "*"])
    return out


def commands(sp: Spec, db: str, table: str, files: str) -> dict[str, list[str]]:
    qi, ls = ",".join(sp.qis), str(sp.l)
    base = ["--table", table, "--qi", qi, "--sa", "s"]
    out: dict[str, list[str]] = {}
    for model, extra in (("distinct", []), ("entropy", []), ("recursive", ["--c", "3"])):
        out[f"check {model}"] = ["check", db, *base, "--model", model, "--l", ls, *extra]
    models = {"tp": "frequency", "hilbert": "frequency", "lplus": "lplus"}
    for algo in ("mondrian", "tp", "tp+", "hilbert", "bsgi", "topdown", "decomposition", "optimal", "lplus",
                 "full-domain"):  # fmt: skip
        extra = []
        if algo == "full-domain":
            extra = ["--levels", ",".join("1" for _ in sp.qis), "--suppression-limit", "1", "--allow-empty"]
        if algo == "optimal":
            extra = ["--suppression-limit", "0.05"]
        out[f"anonymize {algo}"] = ["anonymize", db, *base, "--model", models.get(algo, "distinct"), "--l", ls,
                                    "--algorithm", algo, *extra, "--output", f"r_{_ident(algo)}_{table}"]  # fmt: skip
    mondrian = f"r_mondrian_{table}"
    out["metrics"] = ["metrics", db, "--source", table, "--release", mondrian, "--qi", qi, "--sa", "s",
                      "--l", ls]  # fmt: skip
    out["report"] = ["report", db, "--release", mondrian, "--html", f"{files}.{table}.html"]
    out["risk"] = ["risk", db, "--table", table, "--qi", qi]
    out["suggest-l"] = ["suggest-l", db, "--table", table, "--sa", "s"]
    out["attack similarity"] = ["attack", "similarity", db, "--table", f"r_tp_{table}", "--group-column",
                                "group_id", "--sa", "s", "--categories", f"{files}.{table}.categories"]  # fmt: skip
    out["compose"] = ["compose", db, "--release", mondrian, "--release", f"r_bsgi_{table}"]
    return out


def _ident(algo: str) -> str:
    return algo.replace("+", "p").replace("-", "_")


def _setup(sp: Spec, db: str, files: str) -> None:
    """The point's tables, the QIs' hierarchies and the categories files (once per point: a restarted
    process finds them made)."""
    import duckdb

    con = duckdb.connect(db)
    try:
        for table, n in (("t", sp.rows), ("w", WARM_ROWS)):
            con.execute(f"CREATE TABLE {table} AS SELECT {sp.select} FROM range({n}) AS r(i)")
            cats = con.execute(f"SELECT DISTINCT s, 1 + hash(s) % 3 FROM {table}").fetchall()
            Path(f"{files}.{table}.categories").write_text("".join(f"{v};{c}\n" for v, c in cats))
            if sp.depth:
                values = [v for (v,) in con.execute(f"SELECT DISTINCT q1 FROM {table} ORDER BY 1").fetchall()]
                lines = arx_rows(values, sp.depth)
                Path(f"{files}.{table}.q1.csv").write_text("".join(";".join(r) + "\n" for r in lines))
    finally:
        con.close()
    for table in ("t", "w"):
        for q in sp.qis:
            if sp.depth and q == "q1":
                args = ["hierarchy", "import", db, "--table", table, "--column", q, f"{files}.{table}.q1.csv"]
            else:
                args = ["hierarchy", "build", db, "--table", table, "--column", q, "--intervals", WIDTHS]
            code = _call(args)[1]
            if code:
                raise SystemExit(f"hierarchy of {table}.{q}: exit {code}")


def _call(args: list[str]) -> tuple[float, int]:
    from ldiv_db.cli.main import main

    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return time.perf_counter() - t0, code or 0


def child(job: dict[str, Any]) -> None:
    """One point's commands in this process, each warm on ``w`` first; one JSON line per event on the
    original stdout (the commands' own output, DuckDB's progress bar included, goes to /dev/null)."""
    proto = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sp = Spec(**job["spec"])
    if not Path(job["db"]).exists():
        _setup(sp, job["db"], job["files"])
    warm = commands(sp, job["db"], "w", job["files"])
    timed = commands(sp, job["db"], "t", job["files"])
    for name in job["names"]:
        print(json.dumps({"warm": name}), file=proto, flush=True)
        _call(warm[name])
        print(json.dumps({"start": name}), file=proto, flush=True)
        seconds, code = _call(timed[name])
        print(json.dumps({"name": name, "seconds": round(seconds, 3), "code": code}), file=proto, flush=True)


def _run_point(tree: Path, sp: Spec, workdir: Path, names: list[str], timeout: float) -> dict[str, Any]:
    """The point's commands in processes of ``tree``: a call past ``timeout`` ends its process, and the
    next process goes on with the commands after it."""
    out: dict[str, Any] = {}
    left = list(names)
    job = {"spec": asdict(sp), "db": str(workdir / "p.duckdb"), "files": str(workdir / "p")}
    while left:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps({**job, "names": left})]
        proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True)  # fmt: skip
        lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=_pump, args=(proc, lines), daemon=True).start()
        current, deadline = None, time.monotonic() + max(timeout, 600)  # the point's setup first
        while True:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                line = "timeout"
            if line is None or line == "timeout":
                break
            event = json.loads(line)
            current = event.get("warm") or event.get("start") or current
            deadline = time.monotonic() + timeout
            if "name" in event:
                out[event["name"]] = {"seconds": event["seconds"], "code": event["code"]}
                left.remove(event["name"])
        if line == "timeout" and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # this process's group: the command and nothing else
        proc.wait()
        if left and current in left:  # the command running when the process ended or was stopped
            out[current] = {"seconds": None, "code": "timeout" if line == "timeout" else "crash"}
            if line != "timeout":
                out[current]["stderr"] = (proc.stderr.read() if proc.stderr else "")[-300:]
            left.remove(current)
        elif left:  # the process ended before any command: the point's setup failed
            err = proc.stderr.read() if proc.stderr else ""
            out.update({n: {"seconds": None, "code": "crash", "stderr": err[-300:]} for n in left})
            break
    return out


def _pump(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("{"):
            lines.put(line)
    lines.put(None)


def sweep(axis: str, trees: dict[str, Path], rows: int, names: list[str], timeout: float) -> dict[str, Any]:
    """Every point of the axis in each tree (alternating), a command past the limit dropped at the larger
    points of that tree."""
    figures: dict[str, Any] = {tag: {} for tag in trees}
    dropped: dict[str, set[str]] = {tag: set() for tag in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for x in POINTS[axis]:
            sp = spec(axis, x, rows)
            for tag, tree in trees.items():
                workdir = Path(tmp) / f"{axis}_{x}_{tag}"
                workdir.mkdir()
                todo = [n for n in names if n not in dropped[tag]]
                got = _run_point(tree, sp, workdir, todo, timeout)
                for n in names:
                    r = got.get(n, {"seconds": None, "code": "skipped"})
                    figures[tag].setdefault(n, {})[str(x)] = r
                    if r["code"] == "timeout":
                        dropped[tag].add(n)
                print(f"{axis} = {x} ({tag}) done, load {os.getloadavg()[0]:.1f}", flush=True)
    return figures


def growth(points: list[int], seconds: list[float | None]) -> list[float | None]:
    """Per consecutive pair of points, the time ratio per doubling of the axis."""
    out: list[float | None] = []
    for i in range(len(points) - 1):
        (xa, ta), (xb, tb) = (points[i], seconds[i]), (points[i + 1], seconds[i + 1])
        out.append((tb / ta) ** (1 / math.log2(xb / xa)) if ta and tb else None)
    return out


def _cell(r: dict[str, Any], timeout: float) -> str:
    if r["code"] == "timeout":
        return f">{timeout:.0f}"
    if r["code"] == "skipped":
        return "-"
    if r["seconds"] is None:
        return "crash"
    return f"{r['seconds']:.2f}" + ("" if r["code"] in (0, 1) else f"[{r['code']}]")


def show(axis: str, figures: dict[str, Any], timeout: float) -> None:
    points = POINTS[axis]
    head = "".join(f"{x:>8}" for x in points)
    print(f"\n{axis:28}{head}   per doubling", flush=True)
    for tag, per in figures.items():
        for name, cells in per.items():
            row = [cells[str(x)] for x in points]
            secs = [r["seconds"] if r["code"] in (0, 1) else None for r in row]
            ratios = " ".join("  -  " if g is None else f"{g:5.2f}" for g in growth(points, secs))
            shown = "".join(f"{_cell(r, timeout):>8}" for r in row)
            print(f"{(name + ' ' + tag if len(figures) > 1 else name):28}{shown}   {ratios}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--axes", default=",".join(POINTS))
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a call may take")
    ap.add_argument("--names", help="only these commands (comma-separated, as printed)")
    ap.add_argument("--before", type=Path, help="another checkout, run beside this tree at each point")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(json.loads(a.child))
        return 0
    every = list(commands(spec("l", 2, 10), "db", "t", "f"))
    names = a.names.split(",") if a.names else every
    trees = {"after": ROOT, **({"before": a.before.resolve()} if a.before else {})}
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    for axis in a.axes.split(","):
        t0 = time.perf_counter()
        figures = sweep(axis, trees, a.rows, names, a.timeout)
        show(axis, figures, a.timeout)
        key = axis if a.rows == 5000 else f"{axis}@{a.rows}"  # another row count: a result of its own
        results[key] = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": a.rows,
                         "points": POINTS[axis], "load": os.getloadavg()[0], "figures": figures}  # fmt: skip
        print(f"{axis}: {time.perf_counter() - t0:.0f} s", flush=True)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
