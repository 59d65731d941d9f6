"""How far a stronger move takes BSGI's refined classes (issue 17, the Adult l = 7 line): the *pair
re-split*. Two classes of s rows each (s = l) are merged and split again into two classes of s rows with
distinct SA values, the split of least Σ |G|·cost(G) over all such splits; it holds every exchange the
search of ``ldiv_db/algorithms/bsgi/refine/exchange.py`` makes (one swap) and every combination of them.

An experiment, not a mode of ldiv_db: plain numpy, single SA, classes of equal size only, no bound
that skips a pair before pricing it (``--log`` skips the pairs priced since neither class changed). It starts from the refined release of ``anonymize`` (the chosen start, or ``--start split``:
the exchange search from the feasible split's classes), then alternates one round of re-splits — the
pairs of classes up to ``--window`` places apart along each of the refiner's locality orders (by mean,
lowest and highest row rank), as the exchange search pairs them — with the exchange search.

    python -m bench.bsgi_union --l 7 [--start split] [--rounds 10] [--window 4] [--log]

Writes bench/results/bsgi_union.json; reads Adult from ../shared/datasets (never copied here).
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

import ldiv_db
from bench.bsgi_refine import CASES, _load
from ldiv_db.algorithms import bsgi
from ldiv_db.algorithms.bsgi.refine.exchange import Refiner
from ldiv_db.algorithms.bsgi.refine.starts import partition_cost

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "bsgi_union.json"


def capture(l: int, start: str) -> tuple[Refiner, np.ndarray, float]:
    """The refiner of a BSGI run on Adult, the refined classes of ``start`` ("chosen": the release's own
    start) and the scaled cost of one unit of IL (the release's refined IL fixes it)."""
    seen: dict[str, Any] = {}
    run, best = Refiner.run, bsgi.best_start

    def keep_run(self: Refiner, gid: np.ndarray) -> Any:
        seen["refiner"], seen["refined"] = self, run(self, gid)
        return seen["refined"]

    def keep_starts(cands: Any, greedy: Any, model: Any) -> Any:
        seen["starts"] = {name: r.gid.copy() for name, r in cands}
        return best(cands, greedy, model)

    Refiner.run = keep_run  # type: ignore[method-assign]
    bsgi.best_start = keep_starts
    case = CASES["adult"]
    try:
        with ldiv_db.Database.open(":memory:") as db:
            _load(db, "adult")
            r = ldiv_db.anonymize(
                db, "adult", case["qi"], case["sa"], algorithm="bsgi", l=l, output="o", kl=False
            )
    finally:
        Refiner.run = run  # type: ignore[method-assign]
        bsgi.best_start = best
    refiner: Refiner = seen["refiner"]
    refiner.progress = None
    unit = float(seen["refined"].il_after) / r.details["refine"]["il_after"]
    name = r.details["refine"]["start"] if start == "chosen" else start
    return refiner, refiner.run(seen["starts"][name]).gid.copy(), unit


def members(gid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per class its row positions (−1 pads) and its size."""
    sizes = np.bincount(gid)
    rows = np.argsort(gid, kind="stable")
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    mem = np.full((len(sizes), int(sizes.max())), -1, dtype=np.int64)
    mem[gid[rows], np.arange(len(rows)) - start[gid[rows]]] = rows
    return mem, sizes


def class_cost(refiner: Refiner, rows: np.ndarray) -> np.ndarray:
    """The scaled cost of each class of rows (last axis: the class's rows), priced by the refiner."""
    flat = rows.reshape(-1, rows.shape[-1])
    return np.asarray(refiner._cost(refiner._states(flat))).reshape(rows.shape[:-1])


_SPLITS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def splits(doubles: int, s: int) -> tuple[np.ndarray, np.ndarray]:
    """Every split of a merged pair whose rows are ordered as its doubles (two rows of one SA value, at
    2i and 2i + 1) and then its singles: the positions of A's s rows and of B's, one row of each double on
    each side; the first double's first row stays in A (the mirror split prices the same)."""
    key = (doubles, s)
    if key not in _SPLITS:
        singles = range(2 * doubles, 2 * s)
        a = []
        for bits in range(2 ** max(doubles - 1, 0)):
            base = [0] + [2 * i + ((bits >> (i - 1)) & 1) for i in range(1, doubles)] if doubles else []
            a.extend(base + list(c) for c in itertools.combinations(singles, s - doubles))
        pos_a = np.array(a, dtype=np.int64)
        rest = np.ones((len(pos_a), 2 * s), dtype=bool)
        rest[np.arange(len(pos_a))[:, None], pos_a] = False
        _SPLITS[key] = pos_a, np.nonzero(rest)[1].reshape(len(pos_a), s)
    return _SPLITS[key]


class Log:
    """When each pair of classes was last re-split or found best as it is, and when each class last
    changed: a pair neither of whose classes changed since is skipped (its best split is the one it has)."""

    def __init__(self, k: int) -> None:
        self.clock = 0
        self.changed = np.full(k, -1, dtype=np.int64)
        self.priced: dict[int, int] = {}
        self.k = k
        self.skipped = self.priced_pairs = 0

    def fresh(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        keys = (np.minimum(a, b) * self.k + np.maximum(a, b)).tolist()
        at = np.array([self.priced.get(x, -2) for x in keys], dtype=np.int64)
        keep = at < np.maximum(self.changed[a], self.changed[b])
        self.skipped += int((~keep).sum())
        self.priced_pairs += int(keep.sum())
        for x in np.asarray(keys)[keep].tolist():
            self.priced[x] = self.clock
        return keep


def resplit(
    refiner: Refiner, gid: np.ndarray, a: np.ndarray, b: np.ndarray, s: int, log: Log | None = None
) -> int:
    """Re-split the disjoint pairs (a[p], b[p]) of classes of s rows; returns the pairs changed."""
    value = refiner.distinct[0]
    mem, sizes = members(gid)
    both = (sizes[a] == s) & (sizes[b] == s)
    a, b = a[both], b[both]
    if log is not None:
        log.clock += 1
        fresh = log.fresh(a, b)
        a, b = a[fresh], b[fresh]
    if not len(a):
        return 0
    merged = np.concatenate([mem[a, :s], mem[b, :s]], axis=1)
    v = value[merged]
    by_value = np.argsort(v, axis=1, kind="stable")
    merged, v = np.take_along_axis(merged, by_value, 1), np.take_along_axis(v, by_value, 1)
    twin = np.zeros(v.shape, dtype=bool)
    twin[:, 1:] = v[:, 1:] == v[:, :-1]
    twin[:, :-1] |= twin[:, 1:].copy()
    merged = np.take_along_axis(merged, np.argsort(~twin, axis=1, kind="stable"), 1)  # doubles first
    doubles = twin.sum(axis=1) // 2
    now = s * (class_cost(refiner, mem[a, :s]) + class_cost(refiner, mem[b, :s]))
    changed = 0
    for d in np.unique(doubles).tolist():
        p = np.flatnonzero(doubles == d)
        pos_a, pos_b = splits(int(d), s)
        rows_a, rows_b = merged[p][:, pos_a], merged[p][:, pos_b]  # pairs × splits × s
        cost = s * (class_cost(refiner, rows_a) + class_cost(refiner, rows_b))
        best = cost.argmin(axis=1)
        for q in np.flatnonzero(cost[np.arange(len(p)), best] < now[p]).tolist():
            gid[rows_a[q, best[q]]] = a[p[q]]
            gid[rows_b[q, best[q]]] = b[p[q]]
            changed += 1
            if log is not None:
                log.changed[[a[p[q]], b[p[q]]]] = log.clock
    return changed


def resplit_round(refiner: Refiner, gid: np.ndarray, s: int, window: int, log: Log | None) -> int:
    """One round: along every locality order (by mean, lowest and highest row rank), for d = 1..window
    and both phases, the disjoint pairs of each class with the one d places further."""
    changed = 0
    per_order = 3 if refiner.extremes else 1
    for k in range(refiner.orders):
        mem, sizes = members(gid)  # the classes as they are now, ordered along the k-th locality order
        for order in refiner._orders(mem, sizes)[k * per_order : (k + 1) * per_order]:
            for d in range(1, window + 1):
                for phase in (0, 1):
                    t = np.arange(max(len(order) - d, 0))
                    t = t[(t // d) % 2 == phase]
                    changed += resplit(refiner, gid, order[t], order[t + d], s, log)
    return changed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--l", type=int, default=7)
    ap.add_argument("--start", default="chosen", choices=["chosen", "greedy", "split", "locality"])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--window", type=int, default=4)
    ap.add_argument("--log", action="store_true", help="skip the pairs priced since neither class changed")
    args = ap.parse_args()
    refiner, gid, unit = capture(args.l, args.start)
    steps: list[dict[str, Any]] = [{"step": "exchange search", "il": partition_cost(refiner, gid) / unit}]
    print(f"start {args.start}: refined IL {steps[0]['il']:,.1f}", flush=True)
    s = args.l
    log = Log(int(gid.max()) + 1) if args.log else None
    for r in range(args.rounds):
        t0 = time.perf_counter()
        changed = resplit_round(refiner, gid, s, args.window, log)
        t1 = time.perf_counter()
        il_split = partition_cost(refiner, gid) / unit
        before = gid.copy()
        gid = refiner.run(gid).gid.copy()
        t2 = time.perf_counter()
        if log is not None:  # the exchanges keep class ids: a class changed when a row left it
            log.clock += 1
            log.changed[np.unique(before[before != gid])] = log.clock
        il = partition_cost(refiner, gid) / unit
        steps.append(
            {"round": r + 1, "pairs_changed": changed, "il_after_resplit": il_split, "il": il,
             "resplit_s": round(t1 - t0, 2), "exchange_s": round(t2 - t1, 2),
             "pairs_priced": log.priced_pairs if log else None, "pairs_skipped": log.skipped if log else None}
        )  # fmt: skip
        print(f"round {r + 1}: {changed} pairs re-split, IL {il_split:,.1f}, exchanges {il:,.1f} "
              f"({t1 - t0:.1f} + {t2 - t1:.1f} s)", flush=True)  # fmt: skip
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    out = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    out[f"l{args.l}_{args.start}_w{args.window}{'_log' if args.log else ''}"] = steps
    RESULTS.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
