"""One step of the seeded-kill test, in its own process (Spark's embedded metastore takes one process at
a time): ``python -m tests.spark.kill_child URL STEP RUN`` prints one JSON line of what it saw.

* ``publish``: publish ``main.kill_out`` through staging (:func:`ldiv_db.pipeline.staged.publish_staged`)
  with RUN + 2 rows, recording RUN in ``main.kill_record`` last; with ``LDIV_KILL_AT`` set the process
  dies at that step;
* ``state``: the tables of schema main, the content of ``main.kill_out`` and the records;
* ``recover``: :func:`ldiv_db.pipeline.staged.recover` for ``main.kill_out`` (a run is recorded when
  ``main.kill_record`` holds it), then ``state``;
* a Decomposition+ stream ``main.kst`` (``python -m tests.spark.kill_child URL STEP RUN DIR``, the batch
  files in DIR): ``stream-load`` loads the batches, ``stream-first`` publishes release 1 from batch 0,
  ``stream-append`` appends batch RUN (with ``LDIV_KILL_AT`` set the process dies at that step),
  ``stream-state`` prints what the stream keeps (:func:`_stream_state`).
"""

from __future__ import annotations

import json
import sys

import pandas as pd

from ldiv_db.db import Database
from ldiv_db.pipeline.staged import publish_staged, recover
from ldiv_db.sqlgen.render import Query, TableRef

OUT = TableRef("kill_out", "main")
RECORD = TableRef("kill_record", "main")


def _state(db: Database) -> dict[str, object]:
    names = sorted(db.table_names("main"))  # type: ignore[attr-defined]
    content = None
    if "kill_out" in names:
        content = sorted(int(r[0]) for r in db.rows(Query("state", f"SELECT v FROM {OUT.sql()}")))
    records = sorted(int(r[0]) for r in db.rows(Query("state", f"SELECT run FROM {RECORD.sql()}")))
    return {"tables": names, "content": content, "records": records}


def _stream_state(db: Database) -> dict[str, object]:
    from ldiv_db.algorithms.base import retained_ref
    from ldiv_db.algorithms.decomposition.keys import keys_ref

    def count(sql: str) -> int:
        return int(db.scalar(Query("state", sql)))

    names = [*db.table_names("main"), *db.table_names("ldiv")]  # type: ignore[attr-defined]
    return {
        "leftovers": sorted(n for n in names if "__ldiv_" in n),
        "qid_rows": count("SELECT count(*) FROM main.kst_qid"),
        "sa_rows": count("SELECT count(*) FROM main.kst_sa"),
        "retained": count(f"SELECT count(*) FROM {retained_ref(db, 'main.kst').sql()}"),
        "keys": count(f"SELECT count(*) FROM {keys_ref(db, 'main.kst').sql()}"),
        "stream_rows": count("SELECT count(*) FROM ldiv.stream_row WHERE name = 'main.kst'"),
        "stream": db.records(
            Query("state", "SELECT releases, next_key FROM ldiv.stream WHERE name = 'main.kst'")
        ),
        "releases": count("SELECT count(*) FROM ldiv.release WHERE name = 'main.kst'"),
        "release_rows": count("SELECT count(*) FROM ldiv.release_row"),
        "noise": count("SELECT count(*) FROM ldiv.noise"),
        "noise_of": {
            str(r[0]): int(r[1])
            for r in db.rows(
                Query("state", "SELECT release_id, count(*) FROM ldiv.noise GROUP BY release_id")
            )
        },
    }


def stream_step(url: str, step: str, run: int, files: str) -> None:
    import ldiv_db
    from ldiv_db import api, taxonomy

    with Database.open(url) as db:
        if step == "stream-load":
            for i in range(3):
                ldiv_db.load(db, f"{files}/b{i}.csv", f"b{i}", sep=";")
            taxonomy.import_hierarchy(db, "b0", "pay", f"{files}/pay.csv")
            print(json.dumps({"loaded": True}), flush=True)
            return
        added = None  # the noise the step's release added (a run draws its own seed: not a fixed count)
        if step == "stream-first":
            added = ldiv_db.anonymize(
                db, "b0", ["zip", "age"], ["job", "pay"], algorithm="decomposition", l=[3, 3], output="kst",
                starvation_threshold=1,
            ).details.get("noise")  # fmt: skip
        if step == "stream-append":
            added = api.release_append(db, "kst", f"b{run}").details.get("noise")
        print(json.dumps({**_stream_state(db), "added": added}, default=str), flush=True)


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
    if sys.argv[2].startswith("stream-"):
        stream_step(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
