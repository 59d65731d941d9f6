"""l+-Optimize benchmarks (issue 5; Liu & Wang, ICDE 2010 §VIII) on Adult (30,162 rows, the ARX
hierarchies of ../shared/datasets/adult; SA occupation, class salary-class, θ = 1/l for every value).

* grid: the 6 QIs education, native-country, workclass, marital-status, sex, race (487,080 cuts), l = 2..6
  × LM with the five schemes, DM and CM with NoSupp/vioRec/allRec, through the whole pipeline: the
  search's seconds (target ≤ 10 s, proven optimum), cuts visited, pruned share, the release verified;
  and the full-domain optimum of the same setting (never better than the full-subtree one).
* fd7: the 7 QIs (adding age) with ``--space full-domain`` (2,160 level vectors) for DM/allRec and
  LM/vioSA at l = 4: the optimum against an exhaustive evaluation of all 2,160 (tests/reference).
* seven: the 7 QIs in the full-subtree space (≈5.8·10^12 cuts) for DM/allRec and LM/vioSA at l = 4 with
  ``--time-limit 60`` (and the full-domain warm start): best cost, proven lower bound, gap.
* million: Adult amplified to 1,000,000 rows (bench/amplify.py, seed 7), 6 QIs, DM/allRec, l = 4, the
  whole pipeline (target ≤ 300 s).
* small: issue 57's small-domain cases, the defaults (LM, vioRec, warm start) at l = 2 and 3 on tables of
  ../shared/datasets with 5–6 QIs of small integer or short categorical domains: a 20,186-row sample of
  MACH2019 (age, gender, married, familysize, race, religion; SA Q1A), the FARS subset (iage, isex,
  ihispanic, iinjury, irace, ideathmon; SA ideathday, 31 values) and a 20,186-row sample of CUP (AGE,
  GENDER, INCOME, STATE, NGIFTALL; SA MINRAMNT), and 20,186-row tables shaped like IHIS (AGE, SEX,
  MARSTAT, PERNUM, QUARTER, REGION; SA EDUC) and ATUS (7 QIs; SA the schooling) drawn from their integer
  hierarchies (``shaped``: their data is not redistributable): cuts visited, search seconds and CPU
  seconds, and the optimum asserted equal to the one proven before (``SMALL_OPTIMA``; decisions 0024,
  0030).

``python -m bench.lplus [--only grid,fd7,seven,million,small] [--seven-seconds 60] [--proof-minutes 0]``
writes bench/results/lplus.json. Exit status 1 when a target is missed or a release fails verification.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from ldiv_db.errors import LdivError

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
QI6 = ["education", "native-country", "workclass", "marital-status", "sex", "race"]
QI7 = ["age", *QI6]
SA = "occupation"
CLASS = "salary-class"
COMBOS = [("lm", s) for s in ("nosupp", "viosa", "allsa", "viorec", "allrec")] + [
    (m, s) for m in ("dm", "cm") for s in ("nosupp", "viorec", "allrec")
]
TARGET_GRID = 10.0
TARGET_MILLION = 300.0
DATASETS = ROOT.parent / "shared" / "datasets"
SMALL_ROWS = 20_186
#: name: (data file, or None for a table drawn from the hierarchies' leaves (``shaped``), hierarchy file
#: pattern, QIs, SA, rows sampled (pandas, random_state=1) or drawn, or None)
SMALL: dict[str, tuple[str | None, str, list[str], str, int | None]] = {
    "mach2019": (
        "mach2019/mach2019_int.csv",
        "mach2019/mach2019_int_hierarchy_{}.csv",
        ["age", "gender", "married", "familysize", "race", "religion"],
        "Q1A",
        SMALL_ROWS,
    ),
    "fars": (
        "fars/fars_subset.csv",
        "fars/fars_hierarchy_{}.csv",
        ["iage", "isex", "ihispanic", "iinjury", "irace", "ideathmon"],
        "ideathday",
        None,
    ),
    "cup": (
        "cup/cup.csv",
        "cup/cup_hierarchy_{}.csv",
        ["AGE", "GENDER", "INCOME", "STATE", "NGIFTALL"],
        "MINRAMNT",
        SMALL_ROWS,
    ),
    "ihis": (
        None,
        "ihis/ihis_int_hierarchy_{}.csv",
        ["AGE", "SEX", "MARSTAT", "PERNUM", "QUARTER", "REGION"],
        "EDUC",
        SMALL_ROWS,
    ),
    "atus": (
        None,
        "atus/atus_int_hierarchy_{}.csv",
        ["Age", "Sex", "Race", "Marital status", "Labor force status", "Citizenship status", "Region"],
        "Highest level of school completed",
        SMALL_ROWS,
    ),
}
#: columns drawn uniformly in a shaped table (the others skewed towards their first leaves)
UNIFORM = {"SEX", "QUARTER", "REGION", "Sex", "Region"}
#: the optima (LM / vioRec, proven) by the search of main 4579ba3 (issue 57), per (table, l)
SMALL_OPTIMA = {
    ("mach2019", 2): "29382097/1540",
    ("mach2019", 3): "103256113/2772",
    ("fars", 2): "98452384/1881",
    ("fars", 3): "128018009/1881",
    ("cup", 2): "148114237/7821",
    ("cup", 3): "293856547/7821",
    # proven by main d8f2607's search (issue 57 item 2, round 3)
    ("ihis", 2): "4468489/204",
    ("ihis", 3): "1073557/36",
    ("atus", 2): "10614659/246",
    ("atus", 3): "10494967/205",
}


def load(db: Any, table: str = "adult") -> None:
    import ldiv_db
    from ldiv_db import taxonomy

    ldiv_db.load(db, ADULT / "adult.csv", table, sep=";")
    for col in QI7:
        taxonomy.import_hierarchy(db, table, col, ADULT / f"adult_hierarchy_{col}.csv")


def run(
    db: Any, table: str, qi: list[str], metric: str, scheme: str, l_value: int, **opts: Any
) -> dict[str, Any]:
    import ldiv_db

    t0 = time.perf_counter()
    res = ldiv_db.anonymize(
        db,
        table,
        qi,
        SA,
        algorithm="lplus",
        output="lplus_out",
        replace=True,
        l=l_value,
        metric=metric,
        suppression=scheme,
        class_column=CLASS if metric == "cm" else None,
        **opts,
    )
    d = res.details
    return {
        "metric": metric,
        "scheme": scheme,
        "l": l_value,
        "cost": d["cost_exact"],
        "optimal": d["optimal"],
        "lower_bound": d["lower_bound"],
        "gap": d["gap"],
        "cuts_total": d["cuts_total"],
        "cuts_visited": d["cuts_visited"],
        "pruned_share": d["pruned_share"],
        "seconds_search": d["seconds_search"],
        "seconds_histogram": d["seconds_histogram"],
        "seconds_pipeline": round(time.perf_counter() - t0, 3),
        "histogram_cells": d["histogram_cells"],
        "verified": res.verified,
        "deleted": res.rows_deleted,
        "rows_with_suppressed_cells": res.rows_with_suppressed_cells,
        "cut": d.get("cut", d.get("levels")),
        "warm_start": d.get("warm_start"),
    }


def grid(db: Any) -> list[dict[str, Any]]:
    out = []
    for l_value in range(2, 7):
        for metric, scheme in COMBOS:
            try:
                r = run(db, "adult", QI6, metric, scheme, l_value)
                fd = run(db, "adult", QI6, metric, scheme, l_value, space="full-domain")
                r["full_domain_cost"] = fd["cost"]
                r["full_subtree_not_worse"] = Fraction(r["cost"]) <= Fraction(fd["cost"])
            except LdivError as exc:  # NoSupp may be infeasible; any other error stops the bench
                r = {"metric": metric, "scheme": scheme, "l": l_value, "error": str(exc).splitlines()[0]}
            out.append(r)
            print(json.dumps({k: r.get(k) for k in _SHOW}), flush=True)
    return out


_SHOW = [
    "metric",
    "scheme",
    "l",
    "cost",
    "optimal",
    "cuts_visited",
    "pruned_share",
    "seconds_search",
    "verified",
]


def fd7(db: Any) -> list[dict[str, Any]]:
    import pandas as pd

    from ldiv_db import taxonomy
    from tests.reference.lplus_levels import all_level_costs

    frame = pd.read_csv(ADULT / "adult.csv", sep=";", dtype=str)
    hierarchies = [taxonomy.parse_arx(ADULT / f"adult_hierarchy_{q}.csv") for q in QI7]
    out = []
    for metric, scheme, setting in (("dm", "allrec", "dm-allrec"), ("lm", "viosa", "lm-viosa")):
        r = run(db, "adult", QI7, metric, scheme, 4, space="full-domain")
        t0 = time.perf_counter()
        costs = all_level_costs(frame, QI7, SA, hierarchies, 4, setting)
        best = min(c for c in costs.values() if c is not None)
        r.update(
            {
                "exhaustive_cuts": len(costs),
                "exhaustive_optimum": str(best),
                "equals_exhaustive": Fraction(r["cost"]) == best,
                "seconds_exhaustive": round(time.perf_counter() - t0, 3),
            }
        )
        out.append(r)
        print(
            json.dumps({k: r.get(k) for k in [*_SHOW, "exhaustive_optimum", "equals_exhaustive"]}), flush=True
        )
    return out


def seven(db: Any, seconds: float) -> list[dict[str, Any]]:
    out = []
    for metric, scheme in (("dm", "allrec"), ("lm", "viosa")):
        r = run(db, "adult", QI7, metric, scheme, 4, time_limit=seconds, warm_start=True)
        out.append(r)
        print(json.dumps({k: r.get(k) for k in [*_SHOW, "lower_bound", "gap", "warm_start"]}), flush=True)
    return out


def million() -> dict[str, Any]:
    from bench.amplify import amplify
    from ldiv_db.db import Database
    from ldiv_db.taxonomy import import_hierarchy

    with tempfile.TemporaryDirectory() as tmp:
        db = Database.open(Path(tmp) / "million.duckdb")
        load(db)
        t0 = time.perf_counter()
        stats = amplify(db.con, "adult", "adult_1m", 1_000_000, seed=7)
        for c in QI7:
            import_hierarchy(db, "adult_1m", c, ADULT / f"adult_hierarchy_{c}.csv")
        prepare = time.perf_counter() - t0
        r = run(db, "adult_1m", QI6, "dm", "allrec", 4, warm_start=True, time_limit=TARGET_MILLION - 30)
        db.close()
    r.update({"rows": stats.target_rows, "seconds_amplify": round(prepare, 3)})
    print(json.dumps({k: r.get(k) for k in [*_SHOW, "seconds_pipeline", "lower_bound", "gap"]}), flush=True)
    return r


def shaped(pattern: str, columns: list[str], rows: int, seed: int = 1) -> Any:
    """A table shaped like a survey whose data is not redistributable (IHIS, ATUS: only their hierarchies
    are in ../shared/datasets): ``rows`` rows, each value drawn from its column's hierarchy leaves,
    skewed towards the first leaves (index ⌊n · u²⌋, u uniform) as bench/peers/data.py's IHIS-shaped
    table is, so that classes are uneven; the ``UNIFORM`` columns uniform."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    out = {}
    for col in columns:
        text = (DATASETS / pattern.format(col)).read_text(encoding="utf-8")
        leaves = [line.split(";")[0] for line in text.splitlines() if line]
        u = rng.random(rows)
        pick = np.minimum((len(leaves) * (u if col in UNIFORM else u * u)).astype(int), len(leaves) - 1)
        out[col] = np.asarray(leaves, dtype=object)[pick]
    return pd.DataFrame(out)


def small() -> list[dict[str, Any]]:
    import resource

    import pandas as pd

    import ldiv_db
    from ldiv_db import taxonomy

    out = []
    db = ldiv_db.Database.open(":memory:")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (data, pattern, qi, sa, rows) in SMALL.items():
            if data is None:
                frame = shaped(pattern, [*qi, sa], rows or SMALL_ROWS)
            else:
                frame = pd.read_csv(DATASETS / data, sep=";", dtype=str)
            if rows is not None and rows < len(frame):
                frame = frame.sample(n=rows, random_state=1)
            path = Path(tmp) / f"{name}.csv"
            frame[[*qi, sa]].to_csv(path, sep=";", index=False)
            ldiv_db.load(db, path, name, sep=";")
            for col in qi:
                taxonomy.import_hierarchy(db, name, col, DATASETS / pattern.format(col))
            for l_value in (2, 3):
                cpu0 = resource.getrusage(resource.RUSAGE_SELF)
                res = ldiv_db.anonymize(
                    db, name, qi, sa, algorithm="lplus", output="small_out", replace=True, l=l_value, kl=False
                )
                cpu1 = resource.getrusage(resource.RUSAGE_SELF)
                d = res.details
                r = {
                    "table": name,
                    "rows": len(frame),
                    "l": l_value,
                    "cost": d["cost_exact"],
                    "same_optimum": d["cost_exact"] == SMALL_OPTIMA[(name, l_value)] and d["optimal"],
                    "cuts_visited": d["cuts_visited"],
                    "seconds_search": d["seconds_search"],
                    "cpu_seconds": round(cpu1.ru_utime - cpu0.ru_utime + cpu1.ru_stime - cpu0.ru_stime, 2),
                    "load": round(os.getloadavg()[0], 1),
                    "verified": res.verified,
                }
                out.append(r)
                print(json.dumps(r), flush=True)
    db.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", default="grid,fd7,seven,million,small")
    ap.add_argument("--seven-seconds", type=float, default=60.0)
    args = ap.parse_args(argv)
    parts = set(args.only.split(","))
    import ldiv_db

    db = ldiv_db.Database.open(":memory:")
    load(db)
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "note": "shared 2-core machine; wall times are inflated by other jobs",
    }
    failed = []
    if "grid" in parts:
        results["grid"] = grid(db)
        for r in results["grid"]:
            if "error" in r:
                continue
            if not (r["optimal"] and r["verified"] and r["seconds_search"] <= TARGET_GRID):
                failed.append(f"grid {r['metric']}/{r['scheme']} l={r['l']}")
    if "fd7" in parts:
        results["fd7"] = fd7(db)
        failed += [f"fd7 {r['metric']}" for r in results["fd7"] if not r["equals_exhaustive"]]
    if "seven" in parts:
        results["seven"] = seven(db, args.seven_seconds)
    if "million" in parts:
        results["million"] = million()
        m = results["million"]
        if not (m["optimal"] and m["verified"] and m["seconds_pipeline"] <= TARGET_MILLION):
            failed.append("million")
    if "small" in parts:
        results["small"] = small()
        failed += [f"small {r['table']} l={r['l']}" for r in results["small"] if not r["same_optimum"]]
    out = ROOT / "bench" / "results" / "lplus.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = json.loads(out.read_text()) if out.exists() else {}
    previous.update(results)
    out.write_text(json.dumps(previous, indent=2, default=str) + "\n")
    if failed:
        print("missed:", ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
