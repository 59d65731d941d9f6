"""Hostile-but-legal table shapes (issue 57, "no pathologies"): how each main command's time grows from n
to 4n rows, and a check's recursive profile on one class of k distinct SA values.

``--part growth`` (default): per shape, a DuckDB file of n and of 4n rows (made here, in a temporary
directory), and per command the wall seconds of one call of the CLI's ``main`` in a process of its own
(the same command on a 200-row table of the shape first, in that process, then the clock: imports,
templates and the connection warm; the tables and hierarchies made before),
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

``--engine postgres`` (main set only) makes each shape's tables in a throw-away PostgreSQL server
(tests/engines/pg_server.py; a database per table made) and runs the commands there.

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

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "shapes.json"
WIDTHS = "4,16,64,256,1048576"  # the QIs' interval hierarchies (top-down, optimal)

# each shape: the SELECT list over range(n) AS r(i) (QIs q1.., SA s)
SHAPES: dict[str, str] = {
    "giant": "0 AS q1, 0 AS q2, 'v' || (i % 40) AS s",
    "sa_unique": "i % 37 AS q1, (i * 7) % 23 AS q2, 'v' || i AS s",
    "qi_unique": "i AS q1, i % 7 AS q2, 'v' || (i % 11) AS s",
    "many_qi": ", ".join(f"(i * {p}) % {m} AS q{j + 1}" for j, (p, m) in enumerate(
        [(7, 2), (11, 3), (13, 4), (17, 5), (19, 3), (23, 2), (29, 6), (31, 4), (37, 3), (41, 5), (43, 2), (47, 7)]
    )) + ", 'v' || (i % 13) AS s",
    "long_text": "i % 29 AS q1, (i * 7) % 17 AS q2, repeat('x', 190) || lpad(CAST(i % 40 AS VARCHAR), 10, '0') AS s",
    "nulls": "CASE WHEN i % 3 = 0 THEN NULL ELSE i % 31 END AS q1, CASE WHEN i % 3 = 1 THEN NULL ELSE (i * 7) % 19 END AS q2, "
    "CASE WHEN i % 3 = 2 THEN NULL ELSE 'v' || (i % 9) END AS s",
    "both_unique": "i AS q1, (i * 7) % 23 AS q2, 'v' || ((i * 7919) % 1000003) AS s",
    "skewed": "i % 37 AS q1, (i * 7) % 23 AS q2, CASE WHEN i % 10 < 7 THEN 'common' ELSE 'v' || (i % 997) END AS s",
    "sa_numeric": "i AS q1, (i * 7) % 23 AS q2, (i * 7919) % 1000003 AS s",
}  # fmt: skip

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


def _qis(shape: str) -> list[str]:
    """The shape's QI columns, q1, q2, ... in number order."""
    found = {c.split(" AS ")[-1].strip() for c in SHAPES[shape].split(", ") if " AS q" in c}
    return sorted(found, key=lambda c: int(c[1:]))


def _make(path: Path, shape: str, rows: int) -> list[str]:
    con = duckdb.connect(str(path))
    con.execute(f"CREATE TABLE t AS SELECT {SHAPES[shape]} FROM range({rows}) AS r(i)")
    con.execute(f"CREATE TABLE w AS SELECT {SHAPES[shape]} FROM range(200) AS r(i)")
    con.close()
    return _qis(shape)


def _make_stream(path: Path, shape: str, rows: int) -> None:
    """A stream's tables: ``{t,w}_first`` the rows of ``t`` and ``w`` with a key ``id`` and a primary SA ``p``
    of two values for the two-SA stream, and ``{t,w}_next`` the next batch, a quarter as many new rows of
    the shape (ids after the first's)."""
    con = duckdb.connect(str(path))
    for table, n in (("t", rows), ("w", 200)):
        for name, lo, hi in (("first", 0, n), ("next", n, n + n // 4)):
            con.execute(
                f"CREATE TABLE {table}_{name} AS SELECT i AS id, {SHAPES[shape]}, 'p' || (i % 2) AS p "
                f"FROM range({lo}, {hi}) AS r(i)"
            )
    con.close()


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


def _commands(
    db: str, qis: list[str], tag: str, table: str = "t", nulls: bool = False
) -> dict[str, list[str]]:
    flag = ["--null-as-value"] if nulls else []  # the shape with NULLs: NULL a value of its own
    base = ["--table", table, "--qi", ",".join(qis), "--sa", "s", *flag]
    out: dict[str, list[str]] = {}
    for model, extra in (("distinct", []), ("entropy", []), ("recursive", ["--c", "3"])):
        out[f"check {model}"] = ["check", db, *base, "--model", model, "--l", "2", *extra]
    for algo in ("mondrian", "bsgi", "tp+", "decomposition", "topdown", "optimal"):
        out[f"anonymize {algo}"] = [
            "anonymize", db, *base, "--model", "distinct", "--l", "2", "--algorithm", algo,
            "--output", f"r_{algo.replace('+', 'p')}_{tag}_{table}",
        ]  # fmt: skip
    out["anonymize lplus"] = ["anonymize", db, *base, "--model", "lplus", "--l", "2", "--algorithm", "lplus",
                              "--output", f"r_lplus_{tag}_{table}"]  # fmt: skip
    out["metrics"] = ["metrics", db, "--source", table, "--release", f"r_mondrian_{tag}_{table}", "--qi", ",".join(qis),
                      "--sa", "s", "--l", "2"]  # fmt: skip
    out["risk"] = ["risk", db, "--table", table, "--qi", ",".join(qis), *flag]
    return out


def _model_commands(
    db: str, qis: list[str], tag: str, table: str = "t", nulls: bool = False
) -> dict[str, list[str]]:
    flag = ["--null-as-value"] if nulls else []
    base = ["--table", table, "--qi", ",".join(qis), "--sa", "s", *flag]
    cats = f"{db}.{table}.categories"  # value;category, 1 = most sensitive
    con = duckdb.connect(db)
    con.execute(f"COPY (SELECT DISTINCT s, 1 + hash(s) % 3 FROM {table} WHERE s IS NOT NULL) TO '{cats}' "
                "(HEADER false, DELIMITER ';')")  # fmt: skip
    con.close()
    alpha = ["--l", "2", "--alpha", "0.8", "--categories", cats]
    models = {
        "k": ["--model", "k-anonymity", "--k", "2"], "frequency": ["--model", "frequency", "--l", "2"],
        "unique-distinct": ["--model", "unique-distinct", "--l", "2"], "lplus": ["--model", "lplus", "--l", "2"],
        "t-closeness": ["--model", "t-closeness", "--t", "0.3"], "delta": ["--model", "delta-disclosure", "--delta", "3"],
        "beta": ["--model", "beta-likeness", "--beta", "2"], "entropy": ["--model", "entropy", "--l", "2"],
        "recursive": ["--model", "recursive", "--l", "2", "--c", "3"],
        "distinct-alpha": ["--model", "distinct-alpha", *alpha], "entropy-alpha": ["--model", "entropy-alpha", *alpha],
    }  # fmt: skip
    out: dict[str, list[str]] = {}
    for name in ("k", "frequency", "unique-distinct", "lplus", "t-closeness", "delta", "beta", "distinct-alpha",
                 "entropy-alpha"):  # fmt: skip
        out[f"check {name}"] = ["check", db, *base, *models[name]]
    runs = [("topdown", "t-closeness"), ("topdown", "delta"), ("topdown", "distinct-alpha"), ("topdown", "entropy-alpha"),
            ("optimal", "beta"), ("optimal", "recursive"), ("optimal", "t-closeness"), ("bsgi", "entropy"),
            ("bsgi", "unique-distinct"), ("tp", "entropy"), ("mondrian", "frequency")]  # fmt: skip
    con = duckdb.connect(db)
    row = con.execute(f"SELECT typeof(s) FROM {table} LIMIT 1").fetchone()
    numeric = row is not None and row[0] in ("INTEGER", "BIGINT")
    con.close()
    if numeric:  # the ordered distance reads the SA as numbers
        models["t-closeness ordered"] = [*models["t-closeness"], "--distance", "ordered"]
        out["check t-closeness ordered"] = ["check", db, *base, *models["t-closeness ordered"]]
        runs.append(("optimal", "t-closeness ordered"))
    for algo, name in runs:
        out[f"anonymize {algo} {name}"] = ["anonymize", db, *base, "--algorithm", algo, *models[name], "--output",
                                           f"r_{algo}_{name.replace('-', '_').replace(' ', '_')}_{tag}_{table}"]  # fmt: skip
    first, second = f"r_tp_entropy_{tag}_{table}", f"r_mondrian_frequency_{tag}_{table}"
    out["suggest-l"] = ["suggest-l", db, "--table", table, "--sa", "s"]
    out["attack similarity"] = ["attack", "similarity", db, "--table", first, "--group-column", "group_id",
                                "--sa", "s", "--categories", cats]  # fmt: skip
    out["compose"] = ["compose", db, "--release", first, "--release", second]
    out["report"] = ["report", db, "--release", first, "--html", f"{db}.{table}.html"]
    return out


def _more_commands(
    db: str, qis: list[str], tag: str, table: str = "t", nulls: bool = False
) -> dict[str, list[str]]:
    flag = ["--null-as-value"] if nulls else []
    base = ["--table", table, "--qi", ",".join(qis), "--sa", "s", *flag]
    out: dict[str, list[str]] = {}
    for algo in ("hilbert", "tp"):
        out[f"anonymize {algo}"] = ["anonymize", db, *base, "--model", "frequency", "--l", "2", "--algorithm", algo,
                                    "--output", f"r_{algo}_{tag}_{table}"]  # fmt: skip
    out["anonymize full-domain"] = [
        "anonymize", db, *base, "--model", "distinct", "--l", "2", "--algorithm", "full-domain",
        "--levels", ",".join("2" for _ in qis), "--suppression-limit", "1", "--allow-empty",
        "--output", f"r_full_domain_{tag}_{table}",
    ]  # fmt: skip
    # the first QI at its top (a '*' where the others keep their values): classes that each cover many
    # targets but not all, composed with two suppression releases (compose's round 22 case)
    top = f"r_fd_top_{tag}_{table}"
    out["anonymize full-domain top"] = [
        "anonymize", db, *base, "--model", "distinct", "--l", "2", "--algorithm", "full-domain",
        "--levels", ",".join(["5", *("0" for _ in qis[1:])]), "--suppression-limit", "1", "--allow-empty",
        "--output", top,
    ]  # fmt: skip
    out["compose covering"] = ["compose", db, "--release", f"r_hilbert_{tag}_{table}", "--release",
                               f"r_tp_{tag}_{table}", "--release", top]  # fmt: skip
    stream = f"r_stream_{tag}_{table}"
    out["stream first"] = ["anonymize", db, "--table", f"{table}_first", "--qi", ",".join(qis), "--sa", "s", *flag,
                           "--l", "2", "--algorithm", "decomposition", "--key", "id", "--output", stream]  # fmt: skip
    out["release append"] = ["release", "append", db, "--release", stream, "--from", f"{table}_next", "--key", "id"]  # fmt: skip
    # the shape's SA beside a primary SA of two values, random noise: multi-SA group forming and noise
    two = f"r_stream2_{tag}_{table}"
    out["stream two-SA first"] = ["anonymize", db, "--table", f"{table}_first", "--qi", ",".join(qis), "--sa", "p,s",
                                  *flag, "--l", "2,2", "--noise", "random", "--algorithm", "decomposition", "--key",
                                  "id", "--output", two]  # fmt: skip
    out["two-SA append"] = ["release", "append", db, "--release", two, "--from", f"{table}_next", "--key", "id"]  # fmt: skip
    # compare has no --null-as-value: on the NULL shape it refuses the NULLs, naming them
    out["compare"] = ["compare", db, "--table", table, "--qi", ",".join(qis), "--sa", "s", "--l", "2", "--html",
                      f"{db}.{table}.cmp.html"]  # fmt: skip
    return out


def _rest_commands(
    db: str, qis: list[str], tag: str, table: str = "t", nulls: bool = False
) -> dict[str, list[str]]:
    flag = ["--null-as-value"] if nulls else []
    base = ["--table", table, "--qi", ",".join(qis), "--sa", "s", *flag]
    out: dict[str, list[str]] = {
        "load csv": ["load", db, f"{db}.{table}.csv", "--table", f"{table}_loaded", "--sep", ","],
        "hierarchy build": ["hierarchy", "build", db, "--table", f"{table}_loaded", "--column", qis[0],
                            "--intervals", WIDTHS],
        "hierarchy import": ["hierarchy", "import", db, "--table", f"{table}_loaded", "--column", qis[0],
                             f"{db}.{table}.hier.csv"],  # replaces the one built
        "hierarchy show": ["hierarchy", "show", db, "--table", f"{table}_loaded", "--column", qis[0]],
    }  # fmt: skip
    first, second = f"r_mondrian_{tag}_{table}", f"r_bsgi_{tag}_{table}"
    for algo, name in (("mondrian", first), ("bsgi", second)):
        out[f"anonymize {algo}"] = ["anonymize", db, *base, "--model", "distinct", "--l", "2", "--algorithm", algo,
                                    "--output", name]  # fmt: skip
    out["release publish"] = ["release", "publish", db, "--release", first]
    out["release publish beside"] = ["release", "publish", db, "--release", second, "--accept-composition"]
    out["risk release"] = ["risk", db, "--release", second]
    out["risk sampled"] = ["risk", db, "--table", table, "--qi", ",".join(qis), "--sampling-fraction", "0.1",
                           *flag]  # fmt: skip
    out["risk rows-out"] = ["risk", db, "--table", table, "--qi", ",".join(qis), "--rows-out",
                            f"risk_rows_{tag}_{table}", *flag]  # fmt: skip
    out["releases"] = ["releases", db]
    out["doctor"] = ["doctor", db]
    return out


def _make_rest(path: Path, shape: str) -> None:
    """The files ``--commands rest`` reads: each table as a CSV, and an ARX-format hierarchy of its first QI
    (value; d + value // 10; h + value // 100; *) for the loaded copy."""
    qis = _qis(shape)
    con = duckdb.connect(str(path))
    for table in ("t", "w"):
        con.execute(f"COPY {table} TO '{path}.{table}.csv' (HEADER true, DELIMITER ',')")
        q = qis[0]
        con.execute(
            f"COPY (SELECT DISTINCT {q}, 'd' || ({q} // 10), 'h' || ({q} // 100), '*' FROM {table} WHERE {q} IS NOT NULL) "
            f"TO '{path}.{table}.hier.csv' (HEADER false, DELIMITER ';')"
        )
    con.close()


COMMAND_SETS = {"main": _commands, "models": _model_commands, "more": _more_commands, "rest": _rest_commands}


def _hierarchies(tree: Path, db: str, qis: list[str]) -> None:
    for table in ("t", "w"):
        for q in qis:
            args = ["hierarchy", "build", db, "--table", table, "--column", q, "--intervals", WIDTHS]
            _run(tree, _CHILD, [json.dumps(args), "null"], None, 300)


class _Postgres:
    """``--engine postgres``: a throw-away local server (tests/engines/pg_server.py), a database per table
    made, the shape's rows generated in it."""

    def __init__(self) -> None:
        from tests.engines import pg_server

        self.server = pg_server.start()

    def make(self, shape: str, rows: int) -> tuple[str, list[str]]:
        import psycopg

        url = self.server.url(self.server.new_database("shape"))
        with psycopg.connect(url, autocommit=True) as con:
            for table, n in (("t", rows), ("w", 200)):
                con.execute(  # bigint ids: the shapes' products pass 2**31 from 271,000 rows
                    f"CREATE TABLE {table} AS SELECT {SHAPES[shape]} FROM generate_series(0::bigint, {n - 1}) AS r(i)"
                )
                con.execute(f"ANALYZE {table}")
        return url, _qis(shape)

    def stop(self) -> None:
        self.server.stop()


def growth(
    trees: dict[str, Path],
    shapes: list[str],
    rows: int,
    lock: str | None,
    timeout: float,
    commands: str = "main",
    names: list[str] | None = None,
    postgres: _Postgres | None = None,
) -> dict[str, Any]:
    made = COMMAND_SETS[commands]
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for shape in shapes:
            for tag, tree in trees.items():
                figures: dict[str, dict[str, Any]] = {}
                for n in (rows, 4 * rows):
                    db: Path | str = Path(tmp) / f"{shape}_{n}_{tag}.duckdb"
                    if postgres is None:
                        qis = _make(Path(db), shape, n)
                    else:
                        db, qis = postgres.make(shape, n)
                    if commands == "more":
                        _make_stream(Path(db), shape, n)
                    if commands == "rest":
                        _make_rest(Path(db), shape)
                    _hierarchies(tree, str(db), qis)
                    warm = made(str(db), qis, tag, "w", shape == "nulls")
                    for name, args in made(str(db), qis, tag, "t", shape == "nulls").items():
                        if names and name not in names:
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
                out.setdefault(shape, {})[tag] = figures
    return out


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
    ap.add_argument("--engine", choices=["duckdb", "postgres"], default="duckdb", help="growth, main set")
    a = ap.parse_args(argv)
    trees = {"after": ROOT}
    if a.before:
        trees = {"before": Path(a.before).resolve(), **trees}
    if a.part == "growth":
        shapes = a.only.split(",") if a.only else list(SHAPES)
        names = a.names.split(",") if a.names else None
        if a.engine == "postgres" and a.commands != "main":
            ap.error("--engine postgres runs the main set only (the others make their files with DuckDB)")
        postgres = _Postgres() if a.engine == "postgres" else None
        try:
            figures = growth(trees, shapes, a.rows, a.lock, a.timeout, a.commands, names, postgres)
        finally:
            if postgres is not None:
                postgres.stop()
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
