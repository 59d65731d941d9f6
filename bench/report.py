"""Benchmarks of issue 15: the comparison page on Adult and the report on a 1,000,000-row release.
Writes bench/results/report.json.

    python -m bench.report                    # both cases
    python -m bench.report --case compare     # one case, in this process (prints one JSON object)

* ``compare``: ``ldiv_db.compare`` on Adult with the BSGI benchmark's QIs (bench/bsgi.py), SA occupation,
  l = 4, every default algorithm that applies (each written, verified and measured), the page written.
  Targets: ≤ 60 s in all, page ≤ 2 MB.
* ``million``: Adult amplified to 1,000,000 rows (bench/amplify.py, seed 7), anonymized by TP (l = 4,
  the first four QIs), then ``ldiv_db.report`` on that release with the page written. Target: ≤ 10 s
  for the report (the anonymization is not timed here).

Each case runs in its own subprocess; the report and compare times are the best of ``--repeat`` runs
(the page is rewritten each time).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.bsgi import ADULT, QI, SA, _load_adult

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "report.json"
TARGETS = {"compare_seconds": 60.0, "compare_page_bytes": 2_000_000, "million_report_seconds": 10.0}


def case_compare(repeat: int) -> dict[str, Any]:
    import ldiv_db
    from ldiv_db.db import Database

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "adult.duckdb"
        db = Database.open(path)
        _load_adult(db)
        db.close()
        times, result = [], None
        for _ in range(repeat):
            t0 = time.perf_counter()
            result = ldiv_db.compare(path, "adult", QI, SA, 4, html=str(Path(tmp) / "compare.html"))
            times.append(round(time.perf_counter() - t0, 3))
        assert result is not None and result.html is not None
        size = Path(result.html).stat().st_size
    keep = (
        "label",
        "status",
        "reason",
        "seconds",
        "ncp",
        "rows_deleted",
        "cells_suppressed",
        "classes",
        "max_confidence",
        "kl",
        "dm",
    )
    entries = [{k: v for k, v in e.items() if k in keep} for e in result.to_dict()["entries"]]
    return {
        "case": "compare",
        "dataset": str(ADULT / "adult.csv"),
        "qi": QI,
        "sa": SA,
        "l": 4,
        "seconds": min(times),
        "seconds_all": times,
        "page_bytes": size,
        "entries": entries,
        "notes": result.notes,
    }


def case_million(repeat: int) -> dict[str, Any]:
    import ldiv_db
    from bench.amplify import amplify
    from ldiv_db.db import Database
    from ldiv_db.taxonomy import import_hierarchy

    qi = QI[:4]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "million.duckdb"
        db = Database.open(path)
        _load_adult(db)
        amplify(db.con, "adult", "adult_1m", 1_000_000, seed=7)
        for c in QI:
            import_hierarchy(db, "adult_1m", c, ADULT / f"adult_hierarchy_{c}.csv")
        t0 = time.perf_counter()
        rel = ldiv_db.anonymize(db, "adult_1m", qi, SA, algorithm="tp", l=4, output="adult_1m_tp", kl=False)
        anonymize_seconds = time.perf_counter() - t0
        db.close()
        times, facts = [], None
        for _ in range(repeat):
            t0 = time.perf_counter()
            res = ldiv_db.report(path, "adult_1m_tp", html=str(Path(tmp) / "report.html"))
            times.append(round(time.perf_counter() - t0, 3))
            facts = res.releases[0]
        assert facts is not None
        size = (Path(tmp) / "report.html").stat().st_size
    return {
        "case": "million",
        "rows": rel.rows_in,
        "release": {
            "algorithm": "tp",
            "l": 4,
            "qi": qi,
            "classes": rel.groups,
            "seconds": round(anonymize_seconds, 3),
        },
        "report_seconds": min(times),
        "report_seconds_all": times,
        "gather_seconds": round(facts.seconds, 3),
        "page_bytes": size,
    }


def _subprocess(case: str, repeat: int) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "bench.report", "--case", case, "--repeat", str(repeat)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    if proc.returncode:
        return {"case": case, "error": proc.stderr[-2000:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.report", description=__doc__.splitlines()[0])
    p.add_argument("--case", choices=["compare", "million"])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    if args.case:
        fn = case_compare if args.case == "compare" else case_million
        print(json.dumps(fn(args.repeat), default=str))
        return 0
    cases = {c: _subprocess(c, args.repeat) for c in ("compare", "million")}
    misses = []
    cmp, mil = cases["compare"], cases["million"]
    if "error" in cmp or cmp["seconds"] > TARGETS["compare_seconds"]:
        misses.append("compare_seconds")
    if "error" in cmp or cmp["page_bytes"] > TARGETS["compare_page_bytes"]:
        misses.append("compare_page_bytes")
    if "error" in mil or mil["report_seconds"] > TARGETS["million_report_seconds"]:
        misses.append("million_report_seconds")
    out = {
        "suite": "report",
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "targets": TARGETS,
        "cases": cases,
        "missed": misses,
    }
    args.out.write_text(json.dumps(out, indent=1, default=str) + "\n", encoding="utf-8")
    if "error" not in cmp:
        print(
            f"compare on Adult (l = 4): {cmp['seconds']:.1f} s (best of {args.repeat}), page {cmp['page_bytes']:,} B"
        )
        for e in cmp["entries"]:
            print(
                f"  {e['label']:<9} {e['status']:<8} {e.get('seconds') or 0:6.1f} s  {e.get('reason', '')[:60]}"
            )
    if "error" not in mil:
        print(f"report on {mil['rows']:,} rows: {mil['report_seconds']:.2f} s (best of {args.repeat})")
    for c in cases.values():
        if "error" in c:
            print(f"{c['case']}: error\n{c['error']}")
    print("targets missed: " + (", ".join(misses) or "none"))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
