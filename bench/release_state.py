"""What it costs to check, on every read that shows a verdict, that a release's tables are as verified
(ldiv_db/core/release_state.py: each table's row count and content digest, recomputed and compared with the
ones recorded when it was written). Writes bench/results/release_state.json.

    python -m bench.release_state                  # Adult and 1,000,000 rows
    python -m bench.release_state --case adult     # one case, in this process (prints one JSON object)

* ``adult``: ARX's Adult (30,162 rows), the BSGI benchmark's QIs (bench/bsgi.py), SA occupation, l = 4;
  five releases (bsgi, mondrian, tp, tp+, hilbert), each its own table.
* ``million``: Adult amplified to 1,000,000 rows (bench/amplify.py, seed 7), four QIs; three releases
  (tp, tp+, mondrian) of 1,000,000 rows each.

Timed (best of ``--repeat``, after a warm-up): ``ldiv_db.api.releases`` as the CLI runs it (open the file
read-only, list, check every release), the listing alone (meta/releases.sql, no check) and one table's
fingerprint (sql/ownership/digest.sql).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.bsgi import QI, SA, _load_adult

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "release_state.json"
CASES = {
    "adult": {"rows": None, "qi": QI, "algorithms": ["bsgi", "mondrian", "tp", "tp+", "hilbert"]},
    "million": {"rows": 1_000_000, "qi": QI[:4], "algorithms": ["tp", "tp+", "mondrian"]},
}


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, list[float]]:
    fn()  # warm-up: the file's pages in the OS cache, as for a user who runs ldiv releases twice
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(round(time.perf_counter() - t0, 4))
    return min(times), times


def run_case(case: str, repeat: int) -> dict[str, Any]:
    import ldiv_db
    from ldiv_db import api
    from ldiv_db.core import ownership
    from ldiv_db.db import Database
    from ldiv_db.sqlgen.render import TableRef, render
    from ldiv_db.taxonomy import import_hierarchy

    spec = CASES[case]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{case}.duckdb"
        db = Database.open(path)
        _load_adult(db)
        table = "adult"
        if spec["rows"]:
            from bench.amplify import amplify
            from bench.bsgi import ADULT

            amplify(db.con, "adult", "adult_1m", int(spec["rows"]), seed=7)
            for c in QI:
                import_hierarchy(db, "adult_1m", c, ADULT / f"adult_hierarchy_{c}.csv")
            table = "adult_1m"
        written = {}
        for algo in spec["algorithms"]:
            t0 = time.perf_counter()
            out = f"rel_{algo.replace('+', 'plus')}"
            ldiv_db.anonymize(db, table, spec["qi"], SA, algorithm=algo, l=4, output=out, kl=False)
            written[algo] = round(time.perf_counter() - t0, 2)
        db.close()

        def listing() -> None:
            rdb = Database.open(path, mode="read")
            try:
                rdb.records(render("meta/releases.sql"))
            finally:
                rdb.close()

        def checked() -> None:
            rows = api.releases(str(path)).rows
            assert all(r["table_state"] == "intact" for r in rows), rows

        rdb = Database.open(path, mode="read")
        ref = TableRef("rel_tp", "main")
        rows_per_table = int(rdb.scalar(render("catalog/row_count.sql", source=ref)))
        digest_s, digest_all = _best(lambda: ownership.fingerprint(rdb, ref), repeat)
        rdb.close()
        list_s, list_all = _best(listing, repeat)
        check_s, check_all = _best(checked, repeat)
    return {
        "case": case,
        "releases": len(spec["algorithms"]),
        "rows_per_table": rows_per_table,
        "anonymize_seconds": written,
        "releases_seconds": check_s,
        "releases_seconds_all": check_all,
        "listing_only_seconds": list_s,
        "listing_only_seconds_all": list_all,
        "one_digest_seconds": digest_s,
        "one_digest_seconds_all": digest_all,
        "check_per_release_seconds": round((check_s - list_s) / len(spec["algorithms"]), 4),
    }


def _subprocess(case: str, repeat: int) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "bench.release_state", "--case", case, "--repeat", str(repeat)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    if proc.returncode:
        return {"case": case, "error": proc.stderr[-2000:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.release_state", description=__doc__.splitlines()[0])
    p.add_argument("--case", choices=sorted(CASES))
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    if args.case:
        print(json.dumps(run_case(args.case, args.repeat)))
        return 0
    cases = {c: _subprocess(c, args.repeat) for c in CASES}
    out = {
        "suite": "release_state",
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "cases": cases,
    }
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    for c in cases.values():
        if "error" in c:
            print(f"{c['case']}: error\n{c['error']}")
            continue
        print(
            f"{c['case']}: ldiv releases with {c['releases']} releases of {c['rows_per_table']:,} rows "
            f"{c['releases_seconds']:.3f} s (listing alone {c['listing_only_seconds']:.3f} s, "
            f"one digest {c['one_digest_seconds']:.3f} s)"
        )
    return 1 if any("error" in c for c in cases.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
