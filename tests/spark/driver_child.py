"""A process of its own for the driver-limit tests (its own JVM, with the driver memory the test gives):
``python -m tests.spark.driver_child URL oom`` fetches a result far larger than the driver's heap with
the fetch bound lifted, and prints one JSON line: the error's class, message, hint and exit code, and
the seconds it took."""

from __future__ import annotations

import json
import sys
import time

from ldiv_db.db import Database
from ldiv_db.errors import LdivError
from ldiv_db.sqlgen.render import Query


def main(url: str, step: str) -> None:
    db = Database.open(url)
    t0 = time.perf_counter()
    out: dict[str, object] = {}
    if step == "oom":
        try:
            db.rows(
                Query(
                    "probe/huge.sql",
                    "SELECT range AS a, range * 2 AS b, range * 3 AS c FROM range(400000000)",
                )
            )
        except LdivError as exc:
            out = {
                "error": type(exc).__name__,
                "message": exc.message,
                "hint": exc.hint,
                "exit": exc.exit_code,
            }
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
