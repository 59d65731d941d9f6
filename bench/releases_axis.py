"""The metadata axis (issue 57, "no pathologies"): how a command's time grows with the releases of one
source, as an ETL step that publishes a release a day makes them. A table of ``--rows`` rows (two QIs,
one SA; Mondrian at l = 3) is anonymized into a new release and published, again and again; at each
count in ``--counts`` the step's ``anonymize`` and ``release publish`` (each composes the release with
every published one of the source), ``ldiv compose`` of all of them, ``ldiv releases`` and ``ldiv doctor``
are timed (wall seconds of the CLI's ``main`` in this process, the database a temporary DuckDB file).

``--below`` makes releases that leave rows below l together, so that the check counts its pairs: an SA of
5 values that follows the row order, and the releases alternate Mondrian and BSGI (a Mondrian release
beside a BSGI one leaves about 560 of 2,000 rows fewer than 3 values), each published with
``--accept-composition``.

``--before DIR`` runs the same in another checkout (a process with ``PYTHONPATH=DIR``) after this tree's,
for a before/after on one machine; ``--timeout`` ends a tree's run where one call passes it. Writes
bench/results/releases_axis.json (releases_axis_below.json with ``--below``).

    python -m bench.releases_axis [--counts 1,5,10,20,30] [--rows 2000] [--below] [--before /work/base25]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "releases_axis.json"


def _timed(*args: str) -> tuple[float, int]:
    from ldiv_db.cli.main import main

    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(args))
    return time.perf_counter() - t0, code


def child(counts: list[int], rows: int, timeout: float, below: bool = False) -> list[dict[str, Any]]:
    """This process's tree: the releases made one by one, the commands timed at each count."""
    import duckdb

    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "axis.duckdb")
        con = duckdb.connect(db)
        con.execute(
            "CREATE TABLE t AS SELECT (i % 50) + 20 AS age, ['a', 'b', 'c'][i % 3 + 1] AS sex, "
            f"'v' || (i % {5 if below else 13}) AS s FROM range({int(rows)}) r(i)"
        )
        con.close()
        base = ["--table", "t", "--qi", "age,sex", "--sa", "s", "--l", "3", "--quiet"]
        accept = ["--accept-composition"] if below else []
        for k in range(1, max(counts) + 1):
            algorithm = "bsgi" if below and k % 2 == 0 else "mondrian"
            made = _timed("anonymize", db, *base, "--algorithm", algorithm, "--output", f"r{k}")
            published = _timed("release", "publish", db, "--release", f"r{k}", *accept)
            if k in counts:
                names = [a for i in range(1, k + 1) for a in ("--release", f"r{i}")]
                row = {
                    "releases": k,
                    "anonymize": made,
                    "publish": published,
                    "compose": _timed("compose", db, *names),
                    "list": _timed("releases", db),
                    "doctor": _timed("doctor", db),
                }
                out.append({n: (v if n == "releases" else round(v[0], 2)) for n, v in row.items()})
                codes = {n: v[1] for n, v in row.items() if n != "releases" and v[1] not in (0, 1)}
                if codes:
                    out[-1]["exit_codes"] = codes
                print(json.dumps(out[-1]), flush=True)
            if max(made[0], published[0]) > timeout:
                out.append({"releases": k, "stopped": f"a call passed {timeout:g} s"})
                print(json.dumps(out[-1]), flush=True)
                break
    return out


def _run_tree(tree: Path, counts: str, rows: int, timeout: float, below: bool) -> list[dict[str, Any]]:
    # run as a script: its own folder, then the tree, on the path (``-m`` would put this checkout first)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--counts", counts, "--rows", str(rows),
           "--timeout", str(timeout), *(["--below"] if below else [])]  # fmt: skip
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    sys.stderr.write(done.stderr[-2000:])
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--counts", default="1,5,10,20,30")
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--before", type=Path, help="another checkout, run after this tree")
    ap.add_argument("--timeout", type=float, default=120.0, help="stop a tree's run after a call this long")
    ap.add_argument("--below", action="store_true", help="releases that leave rows below l together")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    counts = sorted({int(x) for x in a.counts.split(",")})
    if a.child:
        child(counts, a.rows, a.timeout, a.below)
        return 0
    trees = {"working tree": ROOT, **({"before": a.before} if a.before else {})}
    results: dict[str, Any] = {
        "rows": a.rows,
        "below": a.below,
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    for label, tree in trees.items():
        print(f"== {label} ({tree})", flush=True)
        results[label] = _run_tree(tree, a.counts, a.rows, a.timeout, a.below)
        for r in results[label]:
            print(f"  {r}", flush=True)
    results["load"] = os.getloadavg()
    out = RESULTS.with_name("releases_axis_below.json") if a.below else RESULTS
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
