"""One step of the seeded-kill test, in its own process (Spark's embedded metastore takes one process at
a time): ``python -m tests.spark.kill_child URL STEP RUN`` prints one JSON line of what it saw.

* ``publish``: publish ``main.kill_out`` through staging (:func:`ldiv_db.pipeline.staged.publish_staged`)
  with RUN + 2 rows, recording RUN in ``main.kill_record`` last; with ``LDIV_KILL_AT`` set the process
  dies at that step;
* ``state``: the tables of schema main, the content of ``main.kill_out`` and the records;
* ``recover``: :func:`ldiv_db.pipeline.staged.recover` for ``main.kill_out`` (a run is recorded when
  ``main.kill_record`` holds it), then ``state``.
"""

from __future__ import annotations

import json
import sys

import pandas as pd

from ldiv_db.db import Database
from ldiv_db.pipeline.staged import publish_staged, recover
from ldiv_db.render import Query, TableRef

OUT = TableRef("kill_out", "main")
RECORD = TableRef("kill_record", "main")


def _state(db: Database) -> dict[str, object]:
    names = sorted(db.table_names("main"))  # type: ignore[attr-defined]
    content = None
    if "kill_out" in names:
        content = sorted(int(r[0]) for r in db.rows(Query("state", f"SELECT v FROM {OUT.sql()}")))
    records = sorted(int(r[0]) for r in db.rows(Query("state", f"SELECT run FROM {RECORD.sql()}")))
    return {"tables": names, "content": content, "records": records}


def main(url: str, step: str, run: int) -> None:
    with Database.open(url) as db:
        db.run(Query("setup", f"CREATE TABLE IF NOT EXISTS {RECORD.sql()} (run BIGINT)"))

        def recorded(run_id: int) -> bool:
            return run_id in _state(db)["records"]  # type: ignore[operator]

        if step == "recover":
            recover(db, OUT, recorded)  # type: ignore[arg-type]
        if step == "publish":

            def build(stages: dict[TableRef, TableRef]) -> None:
                ref = stages[OUT]
                db.run(Query("write", f"CREATE TABLE {ref.sql()} (v BIGINT)"))
                db.insert_frame(ref, pd.DataFrame({"v": range(run + 2)}))

            def record(built: None) -> None:
                db.insert_frame(RECORD, pd.DataFrame({"run": [run]}))

            publish_staged(db, [OUT], run, build=build, record=record, recorded=recorded)  # type: ignore[arg-type]
        print(json.dumps(_state(db)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
