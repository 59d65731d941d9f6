"""Work tables held by the session instead of written to the metastore: a local master's ``CREATE TABLE
ws.t AS query`` of the connection's work schema runs the query into the driver's block manager (a
local checkpoint, memory then disk) under a temporary view, and every later statement that names
``ws.t`` reads that view (decision 0032, "Round 10").

A work table written as a catalog table costs a Parquet write, its metastore entries and, at the
command's end, its share of the work schema's ``DROP SCHEMA ... CASCADE`` (one Derby transaction per
table); a held one costs none of these, and nothing of it outlives the process. The checkpoint cuts the
view's lineage, so the rows are those the statement computed, whatever later writes its inputs see
(a cached query would be recomputed after an ``INSERT`` into a table it read).

A statement that writes a held table (``INSERT``, ``ALTER``, an emulated ``UPDATE``/``DELETE``, a frame
insert, a rename) first makes it a catalog table with the same rows (:meth:`Held.release`), so every
form of write works as before. An emulated ``UPDATE``/``DELETE``'s scratch copy of an ``ldiv`` table is
held too: without lineage it may overwrite the table it was copied from. Only in a run over a source of
at most ``SMALL_SOURCE_ROWS`` rows (``SparkDatabase.threads_for``: a larger one's rows would crowd the
driver's memory), on a local master (a cluster's executors would hold the blocks), and not with
``--keep-work`` (the tables are kept for inspection). Nothing held outlives the process, so a killed
run leaves fewer work tables behind, never more.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pandas as pd

from ...sqlgen.render import Query
from .results import frame_view

_CTAS = re.compile(r"CREATE TABLE (`\w+`|\w+)\.(`\w+`|\w+) AS (.*)", re.IGNORECASE | re.DOTALL)
# an empty table of plain typed columns, ``CREATE TABLE ws.t (a DOUBLE, b BIGINT)``: held as an empty frame
# that frame inserts extend (:meth:`Held.append`)
_COLUMN = r"\s*(?:`\w+`|\w+) \w+"
_EMPTY = re.compile(rf"CREATE TABLE (`\w+`|\w+)\.(`\w+`|\w+) \(((?:{_COLUMN},)*{_COLUMN})\)", re.IGNORECASE)
# statements that write, make or drop the table they name first (after the verb): a held table is made a
# catalog table before them, so none is rewritten to name its unqualified view (a ``CREATE TABLE`` of that
# name would make a table outside the work schema)
_WRITES = re.compile(
    r"(?:INSERT\s+(?:INTO|OVERWRITE)(?:\s+TABLE)?|ALTER\s+TABLE|UPDATE|DELETE\s+FROM|MERGE\s+INTO"
    r"|TRUNCATE\s+TABLE|CREATE\s+(?:OR\s+REPLACE\s+)?TABLE(?:\s+IF\s+NOT\s+EXISTS)?"
    r"|DROP\s+TABLE(?:\s+IF\s+EXISTS)?)\s+(`\w+`|\w+)\.(`\w+`|\w+)",
    re.IGNORECASE,
)


class Held:
    """The work tables of one connection held as checkpointed temporary views, by lower-case name."""

    def __init__(self, spark: Any, work_schema: str) -> None:
        self.spark, self.work_schema = spark, work_schema.lower()
        self.frames: dict[str, Any] = {}
        self._empty: set[str] = set()  # held as made empty, no batch appended yet
        self._names = re.compile(rf"`?{self.work_schema}`?\.`?(\w+)`?", re.IGNORECASE)

    def view(self, name: str) -> str:
        """The temporary view of a held table (unqualified: temporary views live in no schema)."""
        return f"{self.work_schema}__{name.lower()}"

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self.frames

    def _ours(self, schema: str, name: str) -> str | None:
        if schema.strip("`").lower() != self.work_schema:
            return None
        return name.strip("`").lower()

    def create(self, sql: str, args: dict[str, Any], made: set[str]) -> bool:
        """Hold the work table a ``CREATE TABLE ws.t AS query`` makes (True), or leave ``sql`` (False): not
        one whose name a catalog table of this connection may have (``made``), which the statement
        must then find as it would without holding."""
        m = _CTAS.fullmatch(sql.strip()) or _EMPTY.fullmatch(sql.strip())
        name = self._ours(m.group(1), m.group(2)) if m else None
        if m is None or name is None or name in made:
            return False
        if m.re is _EMPTY:
            self._hold(name, self.spark.createDataFrame([], m.group(3)))
            self._empty.add(name)
            return True
        body = self.rewrite(m.group(3))
        used = {k: v for k, v in args.items() if f":{k}" in body}
        self._hold(name, self.spark.sql(body, args=used or None).localCheckpoint(eager=True))
        return True

    def _hold(self, name: str, frame: Any) -> None:
        frame.createOrReplaceTempView(self.view(name))
        self.frames[name] = frame

    def append(self, name: str, batch: pd.DataFrame) -> None:
        """A frame insert into a held table: its rows and the batch's, each column cast to the table's
        type as ``INSERT`` stores it (a column the batch lacks NULL), checkpointed in the job that casts
        them. A table held empty holds the batch's rows alone. Fixed once here, the rows are not shipped
        from the batch again by every statement that reads the table."""
        old = self.frames[name.lower()]
        types = {f.name.lower(): f.dataType for f in old.schema.fields}
        given = {str(c).lower() for c in batch.columns}
        with frame_view(self.spark, batch, types) as select:
            cols = ", ".join(
                f"`{f.name}`" if f.name.lower() in given else f"CAST(NULL AS {f.dataType.simpleString()})"
                for f in old.schema.fields
            )
            rows = f"SELECT {cols} FROM ({select})"  # noqa: S608 - names and types, no values
            if name.lower() not in self._empty:
                rows = f"SELECT * FROM `{self.view(name)}` UNION ALL {rows}"  # noqa: S608
            frame = self.spark.sql(rows).localCheckpoint(eager=True)
        self._empty.discard(name.lower())
        self._hold(name.lower(), frame)
        old.unpersist()

    def answer(self, query: Query) -> list[tuple[Any, ...]] | None:
        """A held table's rows of ``catalog/table_info.sql`` and ``table_exists.sql`` (the metastore knows
        nothing of it), else None."""
        p = query.params or {}
        if str(p.get("schema", "")).lower() != self.work_schema or p.get("name") not in self:
            return None
        if query.name == "catalog/table_info.sql":
            return [(str(p["schema"]), str(p["name"]).lower(), "BASE TABLE")]
        if query.name == "catalog/table_exists.sql":
            return [(True,)]
        return None

    def rewrite(self, sql: str) -> str:
        """``sql`` with every held table it names read from its view."""
        if not self.frames:
            return sql

        def sub(m: re.Match[str]) -> str:
            name = m.group(1).lower()
            return f"`{self.view(name)}`" if name in self.frames else m.group(0)

        return self._names.sub(sub, sql)

    def written(self, sql: str) -> list[str]:
        """The held tables ``sql`` writes, makes again or drops (other than :meth:`create`'s and
        :meth:`dropped`'s forms, taken before it)."""
        if not self.frames:
            return []
        found = [self._ours(m.group(1), m.group(2)) for m in _WRITES.finditer(sql)]
        return [n for n in found if n is not None and n in self.frames]

    def dropped(self, sql: str, drop_if_exists: re.Pattern[str]) -> bool:
        """``DROP TABLE IF EXISTS ws.t`` of a held table: its view and blocks go now (True)."""
        m = drop_if_exists.fullmatch(sql.strip())
        name = self._ours(m.group(1), m.group(2)) if m else None
        return name is not None and self.drop(name)

    def drop(self, name: str) -> bool:
        frame = self.frames.pop(name.lower(), None)
        self._empty.discard(name.lower())
        if frame is None:
            return False
        self.spark.catalog.dropTempView(self.view(name))
        frame.unpersist()
        return True

    def release(self, name: str, create: str) -> None:
        """Make a held table a catalog table with its rows (``create``: the ``CREATE TABLE ... AS`` head
        naming it), before a statement writes it."""
        self.spark.sql(f"{create} SELECT * FROM `{self.view(name)}`")  # noqa: S608 - names, no values
        self.drop(name)

    def clear(self) -> None:
        """Every held table's view and blocks gone (a session already stopped has none to drop)."""
        for name in list(self.frames):
            with contextlib.suppress(Exception):
                self.drop(name)
        self.frames.clear()
