"""One step of the seeded-kill test, in its own process (Spark's embedded metastore takes one process at
a time): ``python -m tests.spark.kill_child URL STEP`` prints one JSON line of what it saw.

* ``setup``: load the BSGI paper table and publish release ``main.kill_out`` (tp, l = 2);
* ``state``: the tables of schema main and the content of ``main.kill_out`` (if any);
* ``recover``: :func:`ldiv_db.pipeline.staged.recover` for ``main.kill_out``, then ``state``;
* ``replace``: publish ``main.kill_out`` again with mondrian (``--replace``); with ``LDIV_KILL_AT`` set
  the process dies at that step of the publish.
"""

from __future__ import annotations

import json
import sys

from fixtures.papers import PAPER_TABLES
from ldiv_db import api
from ldiv_db.anonymize import anonymize
from ldiv_db.db import Database
from ldiv_db.pipeline.staged import recover
from ldiv_db.render import Query, TableRef

OUT = TableRef("kill_out", "main")


def _state(db: Database) -> dict[str, object]:
    names = sorted(db.table_names("main"))  # type: ignore[attr-defined]
    content = None
    if "kill_out" in names:
        frame = db.df(Query("state", f"SELECT * FROM {OUT.sql()}"))
        content = sorted(
            json.dumps([None if v != v else v for v in r], default=str)
            for r in frame.itertuples(index=False, name=None)
        )
    releases = db.rows(Query("state", "SELECT release_id, algorithm FROM ldiv.release ORDER BY release_id"))
    return {"tables": names, "content": content, "releases": [list(r) for r in releases]}


def main(url: str, step: str) -> None:
    table = PAPER_TABLES["bsgi_table1"]
    if step == "setup":
        api.load(url, str(table.path), "kill_src")
    with Database.open(url) as db:
        if step == "recover":
            recover(db, OUT)  # type: ignore[arg-type]
        if step in ("setup", "replace"):
            anonymize(
                db,
                "kill_src",
                list(table.qi),
                list(table.sa),
                algorithm="tp" if step == "setup" else "mondrian",
                output="main.kill_out",
                l=2,
                replace=step == "replace",
            )
        print(json.dumps(_state(db)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
