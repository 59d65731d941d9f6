"""A lower bound on the IL (SPEC §0.7, weights 1) of any exact-size BSGI partition of Adult (issue 17):
k = BSGI Theorem 1's class count (Max-l), every class of at least s = n // k rows with distinct SA values.

    python -m bench.bsgi_bound            # l = 2..7, prints a table and writes bench/results/bsgi_bound.json

The bound, per QI (the IL is a sum over QIs, so the per-QI minima add up to a lower bound):

1. *Mixing count.* Partition the rows into parts j (e.g. by a taxonomy node). A class is *pure* in part j
   (all its rows there) or *mixed*. A class holds at most one row of each SA value, so if X_j is the
   largest count of one SA value within part j, the a_j pure classes of j and the c mixed classes must
   hold X_j rows of that value: X_j ≤ a_j + c. With Σ_j a_j + c = k this gives
   Σ_j max(0, X_j − c) ≤ k − c, so c is at least the least c meeting it (c_min).
2. *Taxonomy cost, additively.* Let P_d partition the leaves by their depth-d ancestor (d = 1..D, the
   root at depth 0). A class *mixes at depth d* when its rows fall in two parts of P_d; its LCA then lies
   at depth < d, and it mixes at every deeper level too. With μ_e the fewest leaves of a non-leaf node at
   depth e and M_d = min_{e<d} μ_e (non-increasing; M_{D+1} = 0), a class whose shallowest mixing depth
   is e + 1 has NCP ≥ μ_e/|A| ≥ M_{e+1}/|A| = Σ_{d ≥ e+1} (M_d − M_{d+1})/|A|, so
   Σ_G |G|·NCP(G) ≥ s · Σ_d c_min(P_d) · (M_d − M_{d+1}) / |A|.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ldiv_db.algorithms.shared.schedule import max_l_schedule

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
QI = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass"]
SA = "occupation"
RESULTS = ROOT / "bench" / "results" / "bsgi_bound.json"


def least_mixed(x: np.ndarray, k: int) -> int:
    """The least c with Σ_j max(0, X_j − c) ≤ k − c (X_j: the largest SA count in part j)."""
    lo, hi = 0, k  # c = k always meets it: every X_j ≤ k
    while lo < hi:
        c = (lo + hi) // 2
        if np.maximum(x - c, 0).sum() <= k - c:
            hi = c
        else:
            lo = c + 1
    return lo


def qi_bound(rows: pd.DataFrame, column: str, k: int, s: int) -> float:
    """The lower bound on Σ_G |G|·NCP(G) of one QI (see the module docstring)."""
    tax = pd.read_csv(ADULT / f"adult_hierarchy_{column}.csv", sep=";", header=None, dtype=str)
    height = tax.shape[1] - 1  # leaf column 0, root column `height`
    domain = tax[0].nunique()
    mu = []  # per depth e = 0..height-1: fewest leaves of a node there with more than one leaf
    for e in range(height):
        per_node = tax.groupby(height - e)[0].nunique()
        multi = per_node[per_node > 1]
        mu.append(int(multi.min()) if len(multi) else domain)
    big_m = [min(mu[:d]) for d in range(1, height + 1)] + [0]  # M_1..M_D, M_{D+1} = 0
    leaf_to = {d: dict(zip(tax[0], tax[height - d], strict=True)) for d in range(1, height + 1)}
    total = 0.0
    for d in range(1, height + 1):
        part = rows[column].map(leaf_to[d])
        x = rows.groupby([part, rows[SA]]).size().groupby(level=0).max().to_numpy()
        total += least_mixed(x, k) * (big_m[d - 1] - big_m[d])
    return s * total / domain


def bound(rows: pd.DataFrame, l: int) -> dict[str, Any]:
    k = max_l_schedule(rows[SA].value_counts().tolist(), l).classes
    s = len(rows) // k
    per_qi = {c: round(qi_bound(rows, c, k, s), 1) for c in QI}
    return {"l": l, "classes": k, "min_size": s, "per_qi": per_qi, "il_bound": round(sum(per_qi.values()), 1)}


def main() -> None:
    rows = pd.read_csv(ADULT / "adult.csv", sep=";", dtype=str)
    rows["age"] = rows["age"].str.strip()
    out = [bound(rows, l) for l in range(2, 8)]
    for r in out:
        print(f"l = {r['l']}: k = {r['classes']}, IL >= {r['il_bound']:,.1f}  {r['per_qi']}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
