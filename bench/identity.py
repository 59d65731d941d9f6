"""Release identity on Adult: the same inputs give the same releases before and after a refactoring.

    python -m bench.identity                          # writes bench/results/identity.json
    python -m bench.identity --out FILE               # ... or FILE
    python -m bench.identity --compare bench/results/identity_before.json
    python -m bench.identity --compare ../before      # a checkout: its bench/results/identity.json
    python -m bench.identity --only bsgi,tp           # the cases whose name starts with one of these

With ``--only`` or ``--compare`` the fingerprints are written only where ``--out`` names (a part of the
cases, or a check against an earlier file, never replaces the committed full set); ``--compare``'s file
is read before any case runs.

Each case is one ``ldiv_db.anonymize`` call with the settings of the benchmark suites (bench/bsgi.py,
bench/tp.py, bench/lplus.py, bench/topdown.py, bench/optimal.py, bench/decomposition.py). Per release it
records:

* ``assignment``: a SHA-256 of the group assignment up to renumbering, read from the private link
  ``ldiv.release_row`` (source row -> group): the sorted list of the groups' sorted source-row-id lists,
  the deleted rows and the rows whose SA was suppressed;
* ``tables``: per written table, a SHA-256 of its sorted rows, the group column replaced by the group's
  smallest source row id (so the labels and published SA values are compared too, not the numbering);
* the counts (rows in, published, deleted, rows with suppressed cells, cells suppressed, groups) and every metric (compared to 1e-9).

``--compare`` prints every difference (a case missing on either side is one) and exits 1 on any.
Every case runs with seed 7 unless it names its own. BSGI runs with ``refine="none"`` when the installed version has that option, as it is otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADULT = ROOT.parent / "shared" / "datasets" / "adult"
RESULTS = ROOT / "bench" / "results" / "identity.json"
SA = "occupation"
QI7 = ["age", "education", "marital-status", "race", "sex", "native-country", "workclass"]
TP_QI = ["age", "sex", "race", "marital-status", "education", "native-country", "workclass"]
LPLUS_QI6 = ["education", "native-country", "workclass", "marital-status", "sex", "race"]
OPT_QI = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "salary-class"]
DEC_QI = ["age", "sex", "race", "marital-status", "native-country"]
DEC_SA = ["occupation", "workclass", "education"]
TOLERANCE = 1e-9
# the tables each case reads, and the columns whose ARX hierarchies are stored for it (as its bench does)
TABLES: dict[str, list[str]] = {
    "adult_h7": QI7,  # bench/bsgi.py, bench/lplus.py
    "adult_plain": [],  # bench/tp.py
    "adult_opt": [*OPT_QI, SA],  # bench/optimal.py
    "adult_dec": DEC_SA,  # bench/decomposition.py
}
# bench/optimal.py: ARX's optimal transformations (levels in OPT_QI order), suppression limit, model
OPTIMAL: list[tuple[str, str, dict[str, Any], list[int]]] = [
    ("distinct3_0", "0", {"model": "distinct", "l": 3}, [0, 4, 1, 0, 3, 2, 2, 0]),
    ("distinct3_5", "0.05", {"model": "distinct", "l": 3}, [0, 3, 0, 0, 2, 1, 1, 0]),
    (
        "recursive43_5",
        "0.05",
        {"model": "recursive", "l": 3, "model_options": {"c": 4}},
        [0, 3, 0, 0, 2, 1, 1, 0],
    ),
    ("entropy3_5", "0.05", {"model": "entropy", "l": 3}, [0, 2, 0, 0, 3, 1, 1, 0]),
]

Case = tuple[str, str, Callable[[Any, str], Any]]


def _anon(table: str, qi: list[str], sa: Any, algorithm: str, **kw: Any) -> Callable[[Any, str], Any]:
    def go(db: Any, output: str) -> Any:
        import ldiv_db

        # A fixed seed: without one every run draws a private seed, so tie orders and ids differ.
        kw.setdefault("seed", 7)
        return ldiv_db.anonymize(db, table, qi, sa, algorithm=algorithm, output=output, replace=True, **kw)

    return go


def _bsgi_options() -> dict[str, Any]:
    from ldiv_db.algorithms import get_algorithm

    names = {o.name for o in get_algorithm("bsgi").options}
    return {"refine": "none"} if "refine" in names else {}


def cases() -> list[Case]:
    """(name, database, call) for every release, in a fixed order."""
    out: list[Case] = []
    bsgi = _bsgi_options()
    for l in range(2, 8):
        out.append((f"bsgi/l{l}", "adult", _anon("adult_h7", QI7, SA, "bsgi", l=l, **bsgi)))
        out.append((f"mondrian/l{l}", "adult", _anon("adult_h7", QI7, SA, "mondrian", l=l)))
    for d in range(3, 8):
        for l in range(2, 8):
            for algorithm in ("tp", "tp+", "hilbert"):
                call = _anon("adult_plain", TP_QI[:d], SA, algorithm, l=l)
                out.append((f"{algorithm}/d{d}/l{l}", "adult", call))
    for l in (2, 4, 6):
        for metric, scheme in (("lm", "viosa"), ("lm", "allrec"), ("dm", "viorec"), ("cm", "allrec")):
            kw: dict[str, Any] = {"metric": metric, "suppression": scheme}
            if metric == "cm":
                kw["class_column"] = "salary-class"
            out.append(
                (
                    f"lplus/{metric}-{scheme}/l{l}",
                    "adult",
                    _anon("adult_h7", LPLUS_QI6, SA, "lplus", l=l, **kw),
                )
            )
    out.append(
        (
            "lplus/dm-allrec-fd7/l4",
            "adult",
            _anon("adult_h7", QI7, SA, "lplus", l=4, metric="dm", suppression="allrec", space="full-domain"),
        )
    )
    for name, limit, model, levels in OPTIMAL:
        out.append(
            (
                f"optimal/{name}",
                "adult",
                _anon("adult_opt", OPT_QI, SA, "optimal", suppression_limit=limit, **model),
            )
        )
        lv = dict(zip(OPT_QI, levels, strict=True))
        out.append(
            (
                f"full-domain/{name}",
                "adult",
                _anon("adult_opt", OPT_QI, SA, "full-domain", levels=lv, suppression_limit=limit, **model),
            )
        )
    out.append(
        ("decomposition/l532", "adult", _anon("adult_dec", DEC_QI, DEC_SA, "decomposition", l=[5, 3, 2]))
    )
    out.append(
        (
            "decomposition/l532-random",
            "adult",
            _anon("adult_dec", DEC_QI, DEC_SA, "decomposition", l=[5, 3, 2], noise="random", seed=1),
        )
    )
    out += _topdown_cases()
    return out


def _topdown_cases() -> list[Case]:
    from bench import topdown as td

    specs = [
        ("mondrian-distinct4", "mondrian", "distinct", td.L, None),
        ("plain2", "topdown", "distinct-alpha", 2, 0),
        ("distinct42", "topdown", "distinct-alpha", td.L, td.ALPHA),
        ("entropy42", "topdown", "entropy-alpha", td.L, td.ALPHA),
        ("recursive342", "topdown", "recursive-alpha", td.L, td.ALPHA),
    ]
    out: list[Case] = []
    for name, algorithm, model, l, alpha in specs:
        kw: dict[str, Any] = {"l": l, "model": model}
        if algorithm == "topdown":
            kw["model_options"] = td.model_options(model, alpha)
        out.append((f"topdown/{name}", "health", _anon("adult_100", td.QI, td.SA, algorithm, **kw)))
    return out


def _open_adult() -> Any:
    import ldiv_db
    from ldiv_db import taxonomy

    db = ldiv_db.Database.open(":memory:")
    for table, columns in TABLES.items():
        ldiv_db.load(db, ADULT / "adult.csv", table, sep=";")
        for col in columns:
            taxonomy.import_hierarchy(db, table, col, ADULT / f"adult_hierarchy_{col}.csv")
    return db


def _open_health(workdir: Path) -> Any:
    from bench import topdown as td

    return td.prepare(workdir, 6, [100])


def _sha(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, separators=(",", ":"), default=str).encode()).hexdigest()


def _assignment(db: Any, release_id: int) -> tuple[str, dict[Any, int]]:
    """The assignment's fingerprint and each group id's canonical name (its smallest source row id)."""
    rows = db.con.execute(
        "SELECT source_rowid, group_id, suppressed FROM ldiv.release_row WHERE release_id = ?", [release_id]
    ).fetchall()
    groups: dict[Any, list[int]] = {}
    deleted, suppressed = [], []
    for rid, gid, sup in rows:
        if gid is None:
            deleted.append(int(rid))
            continue
        groups.setdefault(gid, []).append(int(rid))
        if sup:
            suppressed.append(int(rid))
    canon = {gid: min(members) for gid, members in groups.items()}
    parts = sorted(sorted(m) for m in groups.values())
    return _sha([parts, sorted(deleted), sorted(suppressed)]), canon


def _tables(db: Any, output: str, canon: dict[Any, int]) -> dict[str, str]:
    """SHA-256 of each written table's sorted rows, the group column by its canonical name."""
    out = {}
    for name in (output, f"{output}_qid", f"{output}_sa", f"{output}_marginals"):
        exists = db.con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main' AND table_name = ?",
            [name],
        ).fetchone()[0]
        if not exists:
            continue
        cur = db.con.execute(f'SELECT * FROM "{name}"')
        cols = [c[0].lower() for c in cur.description]
        gcol = cols.index("group_id") if "group_id" in cols else -1
        rows = []
        for row in cur.fetchall():
            vals = list(row)
            if gcol >= 0:
                vals[gcol] = ("g", canon.get(vals[gcol], vals[gcol]))
            rows.append(json.dumps(vals, default=str))
        out[name[len(output) :] or "release"] = _sha([cols, sorted(rows)])
    return out


def _record(db: Any, result: Any, output: str) -> dict[str, Any]:
    assignment, canon = _assignment(db, int(result.release_id))
    metrics = {}
    for k, v in sorted(result.metrics.items()):
        if isinstance(v, bool) or v is None or isinstance(v, str):
            metrics[k] = v
        elif isinstance(v, int | float):
            metrics[k] = float(v)
        else:
            metrics[k] = json.loads(json.dumps(v, default=str))
    return {
        "assignment": assignment,
        "tables": _tables(db, output, canon),
        "rows_in": result.rows_in,
        "rows_published": result.rows_published,
        "rows_with_suppressed_cells": result.rows_with_suppressed_cells,
        "cells_suppressed": result.cells_suppressed,
        "rows_deleted": result.rows_deleted,
        "groups": result.groups,
        "verified": result.verified,
        "metrics": metrics,
    }


def collect(only: list[str] | None = None) -> dict[str, Any]:
    t0 = time.perf_counter()
    releases: dict[str, Any] = {}
    dbs: dict[str, Any] = {}
    todo = [c for c in cases() if not only or any(c[0].startswith(p) for p in only)]
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, which, call) in enumerate(todo):
            if which not in dbs:
                dbs[which] = _open_adult() if which == "adult" else _open_health(Path(tmp))
            db = dbs[which]
            output = f"identity_{i}"
            try:
                releases[name] = _record(db, call(db, output), output)
            except Exception as exc:  # a refused setting is part of the behaviour too
                releases[name] = {
                    "error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                }
            print(f"{name}: {releases[name].get('assignment', releases[name].get('error'))}", file=sys.stderr)
        for db in dbs.values():
            db.close()
    return {"seconds": round(time.perf_counter() - t0, 1), "releases": releases}


def _diff(path: str, a: Any, b: Any) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: {'missing before' if k not in a else 'missing after'}")
            else:
                out += _diff(f"{path}.{k}", a[k], b[k])
        return out
    if isinstance(a, float | int) and isinstance(b, float | int) and not isinstance(a, bool):
        return [] if abs(float(a) - float(b)) <= TOLERANCE else [f"{path}: {a} -> {b}"]
    return [] if a == b else [f"{path}: {a} -> {b}"]


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return _diff("", before["releases"], after["releases"])


def _fingerprints(ap: argparse.ArgumentParser, path: Path) -> dict[str, Any]:
    """The fingerprints ``--compare`` names: the file, or a checkout's bench/results/identity.json; an
    argument error (before any case runs) if there is none or it is not such a file."""
    file = path / "bench" / "results" / "identity.json" if path.is_dir() else path
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        ap.error(
            f"--compare {path}: no fingerprints to read at {file} ({exc.__class__.__name__}); name a file "
            "this command wrote, or a checkout holding bench/results/identity.json"
        )
    if not isinstance(data, dict) or not isinstance(data.get("releases"), dict):
        ap.error(f"--compare {path}: {file} holds no fingerprints (no 'releases' object)")
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--out",
        type=Path,
        help="where to write the fingerprints (default: bench/results/identity.json, "
        "unless --only or --compare is given)",
    )
    ap.add_argument(
        "--compare",
        type=Path,
        help="a file written before, or a checkout holding one in bench/results; print the differences",
    )
    ap.add_argument("--only", help="comma-separated case name prefixes (e.g. bsgi,tp/d3)")
    args = ap.parse_args(argv)
    only = [p.strip() for p in args.only.split(",") if p.strip()] if args.only else None
    before = None if args.compare is None else _fingerprints(ap, args.compare)
    out = args.out if args.out is not None or only or before is not None else RESULTS
    result = collect(only)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(result['releases'])} releases in {result['seconds']} s" + (f" -> {out}" if out else ""))
    if before is None:
        return 0
    if only:
        before = {
            "releases": {k: v for k, v in before["releases"].items() if any(k.startswith(p) for p in only)}
        }
    diffs = compare(before, result)
    for line in diffs:
        print(line)
    print(f"{len(diffs)} differences" if diffs else "identical")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
