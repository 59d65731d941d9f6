"""(l,α) top-down specialization benchmarks (issue 6; Sun, Li, Wang, FGCS 2010 §5).

Adult (30,162 rows) with the 7 QIs age, sex, race, marital-status, education, native-country, workclass
(the ARX hierarchies of ../shared/datasets/adult) and a synthetic "health condition" SA: the paper's 8
diseases in its 4 sensitivity categories (SPEC §3.1), drawn per row with ``random.Random(seed)`` from a
skewed distribution (the paper's medical SA is not public). Uniform weights, α = 1.

* Each model (distinct, entropy, recursive c = 3) at l = 2: whole-pipeline seconds (target ≤ 5 s),
  algorithm seconds, rounds, groups, DM, CAVG, KL, and the similarity attack on the release.
* Runtime vs data size (first 25/50/75/100 % of the rows) and vs l = 2..8 for distinct (l,α).
  (l = 9, 10 of the paper cannot be met with 8 SA values; entropy over 4 categories needs l ≤ 4.)

``python -m bench.topdown [--repeat N] [--seed S]`` writes bench/results/topdown.json and prints the
tables of bench/README.md. Exit status 1 when a target is missed or a release fails verification.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
QI = ["age", "sex", "race", "marital-status", "education", "native-country", "workclass"]
SA = "health"
# the paper's Table 4: value -> (category, relative frequency of the synthetic draw)
DISEASES = {
    "HIV": (1, 2),
    "Cancer": (1, 4),
    "Phthisis": (2, 5),
    "Hepatitis": (2, 6),
    "Obesity": (3, 12),
    "Asthma": (3, 11),
    "Flu": (4, 35),
    "Indigestion": (4, 25),
}
CATEGORIES = {v: c for v, (c, _) in DISEASES.items()}
TARGET_SECONDS = 5.0
MODELS = {
    "distinct-alpha": {},
    "entropy-alpha": {},
    "recursive-alpha": {"c": 3},
}


def prepare(workdir: Path, seed: int, fractions: list[int]) -> Any:
    import pandas as pd

    import ldiv_db
    from ldiv_db import taxonomy

    frame = pd.read_csv(ADULT / "adult.csv", sep=";", dtype=str)
    rng = random.Random(seed)
    values = list(DISEASES)
    weights = [w for _, w in DISEASES.values()]
    frame[SA] = rng.choices(values, weights=weights, k=len(frame))
    db = ldiv_db.Database.open(":memory:")
    for pct in fractions:
        name = f"adult_{pct}"
        part = frame.iloc[: len(frame) * pct // 100]
        path = workdir / f"{name}.csv"
        part.to_csv(path, sep=";", index=False)
        ldiv_db.load(db, path, name, sep=";")
        for col in QI:
            taxonomy.import_hierarchy(db, name, col, ADULT / f"adult_hierarchy_{col}.csv")
    return db


def run(db: Any, table: str, model: str, l: int, repeat: int) -> dict[str, Any]:
    import ldiv_db
    from ldiv_db.attack import similarity

    opts = {"alpha": 1, "categories": CATEGORIES, **MODELS[model]}
    runs = []
    result = None
    for _ in range(repeat):
        result = ldiv_db.anonymize(
            db,
            table,
            QI,
            SA,
            algorithm="topdown",
            output="bench_td_out",
            l=l,
            model=model,
            model_options=opts,
            replace=True,
        )
        runs.append((result.seconds, float(result.details.get("algorithm_seconds", 0.0))))
    assert result is not None
    attack = similarity(db, "bench_td_out", QI, SA, CATEGORIES)
    m = result.metrics
    return {
        "table": table,
        "rows": result.rows_in,
        "model": model,
        "l": l,
        "seconds": round(min(r[0] for r in runs), 4),
        "seconds_median": round(statistics.median(r[0] for r in runs), 4),
        "algorithm_seconds": round(min(r[1] for r in runs), 4),
        "queries": result.queries,
        "rounds": result.details.get("rounds"),
        "groups": result.groups,
        "dm": m.get("dm"),
        "cavg": m.get("cavg"),
        "kl": m.get("kl"),
        "attack_single_category_rows": attack.single_category_rows,
        "attack_max_category_confidence": float(attack.category_confidence),
        "verified": result.verified,
    }


def _line(r: dict[str, Any]) -> str:
    kl = r["kl"]
    return (
        f"| {r['model']} | {r['rows']} | {r['l']} | {r['seconds']:.2f} | {r['algorithm_seconds']:.2f} | "
        f"{r['rounds']} | {r['groups']} | {r['dm']} | {r['cavg']:.3f} | "
        f"{kl if kl is None else round(kl, 4)} | {r['attack_single_category_rows']} | "
        f"{r['attack_max_category_confidence']:.3f} | {r['queries']} |"
    )


HEADER = (
    "| model | rows | l | seconds | algorithm s | rounds | groups | DM | CAVG | KL | attack rows | "
    "max cat. conf. | queries |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args(argv)
    if not (ADULT / "adult.csv").exists():
        print(f"skipped: {ADULT / 'adult.csv'} is absent")
        return 0
    sizes = [25, 50, 75, 100]
    with tempfile.TemporaryDirectory() as tmp:
        db = prepare(Path(tmp), args.seed, sizes)
        print("models (l = 2, α = 1)\n" + HEADER)
        models = []
        for model in MODELS:
            rec = run(db, "adult_100", model, 2, args.repeat)
            models.append(rec)
            print(_line(rec), flush=True)
        print("\nruntime vs data size (distinct, l = 2)\n" + HEADER)
        by_size = []
        for pct in sizes:
            rec = run(db, f"adult_{pct}", "distinct-alpha", 2, args.repeat)
            by_size.append(rec)
            print(_line(rec), flush=True)
        print("\nruntime vs l (distinct, all rows)\n" + HEADER)
        by_l = []
        for l in range(2, 9):
            rec = run(db, "adult_100", "distinct-alpha", l, args.repeat)
            by_l.append(rec)
            print(_line(rec), flush=True)
        db.close()
    out = {
        "machine": platform.platform(),
        "python": sys.version.split()[0],
        "seed": args.seed,
        "qi": QI,
        "sa": {"name": SA, "values": {v: {"category": c, "weight": w} for v, (c, w) in DISEASES.items()}},
        "alpha": 1,
        "target_seconds": TARGET_SECONDS,
        "models": models,
        "by_size": by_size,
        "by_l": by_l,
    }
    path = ROOT / "bench" / "results" / "topdown.json"
    path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {path}")
    bad = [r for r in models if r["seconds"] > TARGET_SECONDS or not r["verified"]]
    bad += [r for r in by_size + by_l if not r["verified"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
