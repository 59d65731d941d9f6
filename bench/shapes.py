"""Hostile-but-legal table shapes (issue 57, "no pathologies"): how each main command's time grows from n
to 4n rows, and a check's recursive profile on one class of k distinct SA values.

``--part growth`` (default): per shape, a DuckDB file of n and of 4n rows (made here, in a temporary
directory; or a PostgreSQL database, below), and per command the wall seconds of one call of the CLI's
``main`` in a process of its own (the same command on a 200-row table of the shape first, in that process,
then the clock: imports, templates and the connection warm; the tables and hierarchies made before),
and their ratio. A ratio well above 4 for 4× rows is a lead. Shapes (numeric QIs, so that top-down and the
optimal search get interval hierarchies): ``giant`` one class (every QI constant), ``sa_unique`` an SA value
per row, ``qi_unique`` a QI value per row, ``many_qi`` 12 QIs, ``long_text`` 200-character SA values,
``nulls`` a third of every column NULL, ``both_unique`` a QI and the SA with a value per row, ``skewed`` one
SA value in 70 % of the rows and 997 others, ``sa_numeric`` as ``both_unique`` with a numeric SA (``--commands
models`` adds t-closeness with the ordered distance there). Commands: ``check`` with distinct, entropy and recursive (l = 2),
``anonymize`` with mondrian, bsgi, tp+, decomposition, topdown, optimal (distinct-2) and lplus (l+ 2),
``metrics`` of the Mondrian release, ``risk``. ``--commands models`` runs instead the other models and
commands: ``check`` with k-anonymity, frequency, unique-distinct, l+, t-closeness, δ-disclosure,
β-likeness and two (l,α) models (categories: a hash of the SA value mod 3), ``anonymize`` with those
models where an algorithm takes them (top-down, optimal, BSGI, TP, Mondrian), ``suggest-l``, the
similarity attack, ``compose`` and ``report`` (exit code 1 of a check is its verdict, not a failure).
``--commands more`` runs the commands the other sets leave out: ``anonymize`` with hilbert and tp (frequency-2),
full-domain (distinct-2 at hierarchy level 2 of every QI, up to every row deleted; and with the first QI at
its top, the others exact: ``compose covering`` composes that release, whose classes each cover many targets
but not all, with the hilbert and tp ones), a Decomposition+ stream
(``stream first``: its first release of the n rows, keyed by ``id``; ``release append``: the next release, a
batch of n/4 new rows of the shape; each on tables of their own, the same rows as ``t`` plus ``id``; and the
same with a primary SA ``p`` of two values before the shape's SA, ``--l 2,2 --noise random``: ``stream
two-SA first``, ``two-SA append``) and
``compare`` (its default algorithms at l = 2, with the HTML page; top-down is skipped there for want of
sensitivity categories, and the ``nulls`` shape refused: compare has no ``--null-as-value``).
``--commands rest`` runs what no other set times: ``load`` of the table as a CSV, ``hierarchy build`` of the
first QI's intervals, then ``hierarchy import`` of an ARX file over its values (d + value // 10; h + value //
100; *) and ``hierarchy show``, on the loaded copy; Mondrian and BSGI releases, ``release publish`` of the
first, then of the second beside it (the composition check, accepted), ``risk`` of the BSGI release, of the
table with ``--sampling-fraction 0.1`` and with ``--rows-out``; ``releases`` and ``doctor``.
A call that fails (a shape the algorithm refuses) is shown with its exit code; one over ``--timeout``
seconds as ``>T``.

``--engine postgres`` makes each shape's tables (and the side files, the same rows) in a throw-away
PostgreSQL server (tests/engines/pg_server.py; a database per table made) and runs every set there; a
command the engine cannot run is skipped with the reason printed (bench/shape_sets.py). The tables and
files: bench/shape_tables.py; the sets' argument lists: bench/shape_sets.py.

``--part profile``: ``ldiv_db.check`` in-process on one class (QI constant) of k values each twice, model
distinct-2 (the profile runs whenever the distinct l is 2 or more), after a warm-up on a small class,
best of ``--repeat`` (one run from k = 20,000), with the
statement ``partition/source_profile`` timed alone (the step log).

``--before DIR`` runs every figure with that tree too, alternating (same-run pairs). ``--lock FILE`` takes
``flock FILE timeout T nice -n -5`` around each timed process (the rounds' shared lock; ``--timeout`` counts
from when the lock is held). Writes
bench/results/shapes.json (with ``--only``, at the same ``--rows``, the other shapes' figures are kept).

    python -m bench.shapes [--part growth|profile] [--commands main|models|more|rest] [--rows 5000]
                           [--only SHAPE,...] [--engine duckdb|postgres] [--before /work/base18]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import duckdb

from .shape_sets import COMMAND_SETS, WIDTHS, skipped
from .shape_tables import SHAPES, PostgresTables, Tables

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "shapes.json"
_CHILD = """
import json, sys, time
import duckdb, numpy, pandas
from ldiv_db.cli.main import main
args, warm = json.loads(sys.argv[1]), json.loads(sys.argv[2])
if warm:  # the same command on the shape's small table first: imports, templates and connection warm
    try:
        main(warm)
    except SystemExit:
        pass
t0 = time.perf_counter()
try:
    code = main(args)
except SystemExit as exc:
    code = exc.code
print(json.dumps({"seconds": time.perf_counter() - t0, "code": code or 0}))
"""

_PROFILE = """
import json, sys, time
import ldiv_db
db = ldiv_db.Database.open(sys.argv[1], mode="read")
ldiv_db.check(db, "warm", ["q1"], "s", model="distinct", l=2)  # warm-up on a small class
best = None
for _ in range(int(sys.argv[2])):
    db.steps.clear()
    t0 = time.perf_counter()
    r = ldiv_db.check(db, "t", ["q1"], "s", model="distinct", l=2)
    wall = time.perf_counter() - t0
    steps = {s.template: s.ms / 1000 for s in db.steps}
    if best is None or wall < best["seconds"]:
        best = {"seconds": wall, "profile_seconds": steps.get("partition/source_profile.sql",
                steps.get("partition/recursive_profile.sql")),
                "bounds": [[b.l, str(b.c_above)] for b in r.recursive][-3:], "n_bounds": len(r.recursive)}
print(json.dumps(best))
"""


def _run(tree: Path, code: str, args: list[str], lock: str | None, timeout: float) -> dict[str, Any]:
    cmd = [sys.executable, "-c", code, *args]
    if lock:  # the clock starts once the lock is held: time waiting for another's run is no timeout
        cmd = ["flock", lock, "timeout", "-k", "10", str(timeout), "nice", "-n", "-5", *cmd]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    try:
        done = subprocess.run(
            cmd, env=env, capture_output=True, text=True, timeout=None if lock else timeout, cwd=tree
        )
    except subprocess.TimeoutExpired:
        return {"seconds": None, "code": "timeout"}
    if lock and done.returncode in (124, 137):  # timeout(1): the command ran over, and was stopped
        return {"seconds": None, "code": "timeout"}
    try:  # the last line, after DuckDB's progress bar where one was drawn on the same line
        last = done.stdout.strip().splitlines()[-1]
        out: dict[str, Any] = json.loads(last[last.index('{"') :])
    except (IndexError, ValueError):
        return {"seconds": None, "code": f"crash: {done.stderr.strip()[-300:]}"}
    return out


def _hierarchies(tree: Path, db: str, qis: list[str]) -> None:
    for table in ("t", "w"):
        for q in qis:
            args = ["hierarchy", "build", db, "--table", table, "--column", q, "--intervals", WIDTHS]
            _run(tree, _CHILD, [json.dumps(args), "null"], None, 300)


def growth(
    trees: dict[str, Path],
    shapes: list[str],
    rows: int,
    lock: str | None,
    timeout: float,
    commands: str = "main",
    names: list[str] | None = None,
    engine: str = "duckdb",
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tables = PostgresTables(tmp) if engine == "postgres" else Tables(tmp)
        try:
            for shape in shapes:
                for tag, tree in trees.items():
                    figures = _shape_growth(tree, tables, shape, tag, rows, lock, timeout, commands, names)
                    out.setdefault(shape, {})[tag] = figures
        finally:
            tables.stop()
    return out


def _shape_growth(
    tree: Path,
    tables: Tables,
    shape: str,
    tag: str,
    rows: int,
    lock: str | None,
    timeout: float,
    commands: str,
    names: list[str] | None,
) -> dict[str, dict[str, Any]]:
    """One shape's figures in one tree: the set's commands at n and at 4n rows, and their ratio."""
    made_set = COMMAND_SETS[commands]
    figures: dict[str, dict[str, Any]] = {}
    for n in (rows, 4 * rows):
        made = tables.make(shape, n, tag, commands)
        _hierarchies(tree, made.db, made.qis)
        warm = made_set(made, tag, "w", shape == "nulls")
        for name, args in made_set(made, tag, "t", shape == "nulls").items():
            reason = skipped(made, name)
            if (names and name not in names) or reason:
                if reason and n == rows:
                    print(f"{shape:10} {tag:6} {name:32} skipped: {reason}", flush=True)
                continue
            r = _run(tree, _CHILD, [json.dumps(args), json.dumps(warm[name])], lock, timeout)
            figures.setdefault(name, {})[str(n)] = r
    for name, f in figures.items():
        a, b = f[str(rows)], f[str(4 * rows)]
        ratio = b["seconds"] / a["seconds"] if a["seconds"] and b["seconds"] else None
        f["ratio"] = ratio
        shown = [_shown(a, timeout), _shown(b, timeout)]
        print(f"{shape:10} {tag:6} {name:32} {shown[0]:>9} {shown[1]:>9}  "
              f"{'' if ratio is None else f'{ratio:.1f}x'}  load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    return figures


def _shown(r: dict[str, Any], timeout: float) -> str:
    if r["code"] == "timeout":
        return f">{timeout:.0f}"
    if r["seconds"] is None:
        return "crash"
    return f"{r['seconds']:.2f}" + ("" if r["code"] == 0 else f"[{r['code']}]")


def profile(
    trees: dict[str, Path], ks: list[int], repeat: int, lock: str | None, timeout: float
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in ks:
            db = Path(tmp) / f"one_class_{k}.duckdb"
            con = duckdb.connect(str(db))
            con.execute(
                f"CREATE TABLE t AS SELECT 0 AS q1, 'v' || (i % {k}) AS s FROM range({2 * k}) AS r(i)"
            )
            con.execute("CREATE TABLE warm AS SELECT 0 AS q1, 'v' || (i % 50) AS s FROM range(100) AS r(i)")
            con.close()
            for rnd in range(repeat if k < 20_000 else 1):  # the quadratic statement: minutes a call
                for tag, tree in trees.items():
                    r = _run(tree, _PROFILE, [str(db), "1"], lock, timeout)
                    r["load"] = round(os.getloadavg()[0], 2)
                    out.setdefault(str(k), {}).setdefault(tag, []).append(r)
                    secs = "timeout" if r.get("seconds") is None else f"{r['seconds']:.3f} s"
                    print(f"k={k:6} round {rnd + 1} {tag:6} {secs} (profile {r.get('profile_seconds')}) "
                          f"load {r['load']}", flush=True)  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=["growth", "profile"], default="growth")
    ap.add_argument("--commands", choices=sorted(COMMAND_SETS), default="main", help="growth: which commands")
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--only", help="comma-separated shapes")
    ap.add_argument("--ks", default="1000,5000,20000", help="profile: the class sizes")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", help="another tree (a directory) measured alternately")
    ap.add_argument("--lock", help="flock this file around each timed process, at nice -5")
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--names", help="growth: only these commands of the set (comma-separated, as printed)")
    ap.add_argument(
        "--engine", choices=["duckdb", "postgres"], default="duckdb", help="growth: where the tables are"
    )
    a = ap.parse_args(argv)
    trees = {"after": ROOT}
    if a.before:
        trees = {"before": Path(a.before).resolve(), **trees}
    if a.part == "growth":
        shapes = a.only.split(",") if a.only else list(SHAPES)
        names = a.names.split(",") if a.names else None
        figures = growth(trees, shapes, a.rows, a.lock, a.timeout, a.commands, names, a.engine)
    else:
        figures = profile(trees, [int(k) for k in a.ks.split(",")], a.repeat, a.lock, a.timeout)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    part = a.part if a.part == "profile" or a.commands == "main" else f"growth_{a.commands}"
    part += "_postgres" if a.engine == "postgres" else ""
    earlier = results.get(part, {})
    if a.part == "growth" and a.only and earlier.get("rows") == a.rows:  # the other shapes' figures stay
        figures = {**earlier.get("figures", {}), **figures}
        when = {**earlier.get("when_by_shape", {s: earlier.get("when") for s in earlier.get("figures", {})}),
                **{s: when for s in a.only.split(",")}}  # fmt: skip
        results[part] = {"when_by_shape": when, "rows": a.rows, "figures": figures}
    else:
        results[part] = {"when": when, "rows": a.rows, "figures": figures}
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
