"""One release on Adult as a timeline: every statement with its start (ms after the call began), its
length, the thread that sent it, and the Python time before it on the connection's thread — where a
release's time goes, and which statements are on its path (issue 12).

    python -m bench.timeline                 # BSGI (the paper's, refine none), l = 4, 7 QIs, database file
    python -m bench.timeline tp 7            # TP, l = 7, 7 QIs, in memory
    python -m bench.timeline bsgi 2 --runs 9 # the run with the shortest pipeline of 9 (after a warm-up)

Statements sent inside the algorithm's ``run`` are marked ``ALG``, those of the second reader ``SIDE``.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.pipeline import ADULT, BSGI_QI, SA, TP_QI

Event = tuple[float, float, str, str, int]  # start, end, template, thread, rows


def _instrument() -> tuple[list[Event], dict[str, float]]:
    from ldiv_db.algorithms import REGISTRY
    from ldiv_db.db import base

    events: list[Event] = []
    marks: dict[str, float] = {}
    log = base.Database._log

    def logged(self: Any, query: Any, rows: int) -> None:
        end = time.perf_counter()
        log(self, query, rows)
        events.append((self._last_t0, end, query.name, threading.current_thread().name, rows))

    base.Database._log = logged  # type: ignore[method-assign]
    for cls in REGISTRY.values():
        original = cls.run

        def run(self: Any, request: Any, _original: Any = original) -> Any:
            marks["a0"] = time.perf_counter()
            try:
                return _original(self, request)
            finally:
                marks["a1"] = time.perf_counter()

        cls.run = run  # type: ignore[method-assign]
    return events, marks


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("algorithm", nargs="?", default="bsgi", choices=["bsgi", "tp"])
    p.add_argument("l", nargs="?", type=int, default=4)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    import ldiv_db
    from ldiv_db.db import Database
    from ldiv_db.taxonomy import import_hierarchy

    events, marks = _instrument()
    bsgi = args.algorithm == "bsgi"
    with tempfile.TemporaryDirectory() as tmp:
        db = Database.open(Path(tmp) / "adult.duckdb" if bsgi else ":memory:")
        ldiv_db.load(db, ADULT / "adult.csv", "adult", sep=";")
        for c in BSGI_QI:
            import_hierarchy(db, "adult", c, ADULT / f"adult_hierarchy_{c}.csv")
        best: tuple[float, float, float, list[Event], dict[str, float]] | None = None
        for i in range(args.runs + 1):  # the first run warms up
            events.clear()
            t0 = time.perf_counter()
            ldiv_db.anonymize(
                db,
                "adult",
                BSGI_QI if bsgi else TP_QI,
                SA,
                algorithm=args.algorithm,
                l=args.l,
                output="bench_timeline",
                replace=True,
                **({"refine": "none"} if bsgi else {}),
            )
            t1 = time.perf_counter()
            pipeline = (t1 - t0) - (marks["a1"] - marks["a0"])
            if i and (best is None or pipeline < best[0]):
                best = (pipeline, t0, t1, list(events), dict(marks))
        db.close()
    assert best is not None
    pipeline, t0, t1, evs, mk = best
    print(
        f"call {1000 * (t1 - t0):.1f} ms: algorithm {1000 * (mk['a1'] - mk['a0']):.1f}, rest {1000 * pipeline:.1f}"
    )
    print(f"{'start':>7} {'ms':>6} {'python':>6}  where template (rows)")
    prev, on_path, python = t0, 0.0, 0.0
    for start, end, name, thread, rows in evs:
        side = thread != threading.main_thread().name
        alg = mk["a0"] <= start <= mk["a1"]
        gap = 0.0 if side else (start - prev) * 1000
        where = "SIDE" if side else ("ALG " if alg else "    ")
        print(f"{(start - t0) * 1000:7.1f} {(end - start) * 1000:6.1f} {gap:6.1f}  {where} {name} ({rows})")
        if not side:
            prev = end
            if not alg:
                on_path += (end - start) * 1000
                python += max(gap, 0.0)
    print(
        f"outside the algorithm, on the connection: statements {on_path:.1f} ms, Python between them "
        f"{python:.1f} ms, after the last one {(t1 - prev) * 1000:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
