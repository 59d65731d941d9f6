"""``ldiv doctor DB [--repair]``: what of the ``ldiv`` schema is missing or different, and the safe repairs.

A repair never touches a user table or release data. It recreates a missing (or, when it holds no
rows, a changed) ``ldiv`` table empty from the shipped migrations only when no stored row can refer to
what it held (:data:`RECREATE_WHEN_EMPTY`: the audit tables ``run`` and ``run_step`` always; a release
table only while the tables that refer to it are empty), recreates a missing sequence after the largest
id in use, and re-records a migration whose objects are all present. Everything else is reported with
what to do instead. All repairs run in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..db import Database
from ..db.urls import display_url, is_postgres_url
from ..errors import BadInput
from ..schema.migrate import BOOKKEEPING, applied_migrations, shipped_migrations
from ..schema.runs import mark_stale_runs, stale_runs
from ..schema.state import Finding, State, expected, inspect
from ..sqlgen.render import TableRef, quote, render

# A missing table may be recreated empty when these tables hold no rows (a missing one holds none).
# Tables not listed here are never recreated.
RECREATE_WHEN_EMPTY: dict[str, tuple[str, ...]] = {
    "schema_migration": (),
    "run": (),
    "run_step": (),
    "sa_category": (),
    "hierarchy": ("hierarchy_node", "hierarchy_level"),
    "hierarchy_node": ("hierarchy",),
    "hierarchy_level": ("hierarchy",),
    "release": ("release_row", "stream"),
    "release_row": ("release",),
    "stream": ("stream_row", "release"),
    "stream_row": ("stream",),
    "noise": ("stream",),
    "release_table": ("release",),
}

LOST = {
    "run": "the run history is lost",
    "run_step": "the step log of past runs is lost",
    "sa_category": "re-import the sensitivity categories (ldiv hierarchy import-categories)",
    "hierarchy": "re-import the hierarchies",
    "hierarchy_node": "re-import the hierarchies",
    "hierarchy_level": "re-import the hierarchies",
}


@dataclass
class Action:
    finding: Finding
    repair: str | None  # what --repair does, or None
    reason: str | None  # why it cannot be repaired
    sql: list[str] = field(default_factory=list)
    record: tuple[int, str, str] | None = None  # (version, name, checksum) to re-record


@dataclass
class DoctorResult:
    database: str
    version: int
    latest: int
    actions: list[Action]
    repair: bool  # --repair was given (every repairable problem was repaired)
    healthy: bool
    # runs left 'running' whose owner is gone, with the status --repair gave them ('running': not yet)
    stale_runs: list[tuple[int, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "database": self.database,
            "migration_version": self.version,
            "shipped_version": self.latest,
            "healthy": self.healthy,
            "repaired": self.repair and any(a.repair is not None for a in self.actions),
            "problems": [
                {
                    "object": a.finding.name,
                    "problem": a.finding.kind,
                    "detail": a.finding.detail,
                    "repair": a.repair,
                    "cannot_repair": a.reason,
                }
                for a in self.actions
            ],
            "stale_runs": [{"run_id": r, "status": st} for r, st in self.stale_runs],
        }

    def render_text(self) -> str:
        if self.version < 0:
            head = f"{self.database}: no ldiv schema yet (the first write command creates it)"
        else:
            pending = (
                f", migrations {self.version + 1}..{self.latest} pending"
                if self.version < self.latest
                else ""
            )
            head = f"{self.database}: ldiv schema at migration {self.version} of {self.latest}{pending}"
        lines = [head]
        for a in self.actions:
            if a.repair is not None:
                done = "repaired: " if self.repair else "--repair would: "
                lines.append(f"  {a.finding}\n    {done}{a.repair}")
            else:
                lines.append(f"  {a.finding}\n    cannot repair: {a.reason}")
        for run, status in self.stale_runs:
            if status == "running":
                lines.append(
                    f"  run {run} is 'running' but its owner is gone (its process or session ended)\n"
                    "    the next write command records its end; --repair would do it now"
                )
            else:
                lines.append(
                    f"  run {run} was 'running' but its owner is gone\n    repaired: recorded {status}"
                )
        if self.healthy:
            lines.append("healthy" if not self.actions else "healthy after the repair")
        elif self.repair:
            lines.append("problems remain (see 'cannot repair'): ldiv_db refuses to use this file")
        else:
            lines.append("damaged: ldiv_db refuses to use this file until it is repaired (--repair)")
        return "\n".join(lines)


def _rows(db: Database, table: str, state: State) -> int:
    if table not in state.actual.tables:
        return 0
    return int(db.scalar(render("catalog/row_count.sql", source=TableRef(table, "ldiv"))))


def _guard(db: Database, table: str, state: State) -> str | None:
    """None when ``table`` may be recreated empty, else the reason why not."""
    if table not in RECREATE_WHEN_EMPTY:
        return f"ldiv_db does not recreate ldiv.{table}; restore the file from a backup"
    busy = [(g, n) for g in RECREATE_WHEN_EMPTY[table] if (n := _rows(db, g, state))]
    if busy:
        held = ", ".join(f"ldiv.{g} holds {n} row(s)" for g, n in busy)
        return f"{held} that refer to it; restore the file from a backup"
    exp = expected(db)
    if exp.after[state.version].tables.get(table) != exp.after[exp.latest].tables.get(table):
        return f"ldiv.{table} changed in a later migration; restore the file from a backup"
    return None


def _table_action(db: Database, f: Finding, state: State) -> Action:
    table = f.name.removeprefix("ldiv.")
    ddl = BOOKKEEPING if table == "schema_migration" else expected(db).table_ddl[table]
    if f.kind == "different" and (n := _rows(db, table, state)):
        return Action(
            f,
            None,
            f"ldiv.{table} holds {n} row(s); export them, restore the file from a backup, or drop "
            "the table yourself and run --repair again",
        )
    reason = _guard(db, table, state)
    if reason is not None:
        return Action(f, None, reason)
    sql = [f"DROP TABLE ldiv.{quote(table)}"] if f.kind == "different" else []
    lost = f" ({LOST[table]})" if table in LOST and f.kind == "missing" else ""
    what = "recreate the table empty" + lost
    return Action(f, what, None, [*sql, ddl])


def _sequence_action(db: Database, f: Finding, state: State) -> Action:
    seq = f.name.removeprefix("ldiv.")
    owner = seq.removesuffix("_seq")
    column = f"{owner}_id"
    if not seq.endswith("_seq") or column not in dict(
        expected(db).after[expected(db).latest].tables.get(owner, ())
    ):
        return Action(f, None, "ldiv_db does not know which ids it numbers; restore the file from a backup")
    start = 1
    if owner in state.actual.tables and column in dict(state.actual.tables[owner]):
        top = db.raw_rows(f"SELECT max({quote(column)}) FROM ldiv.{quote(owner)}")[0][0]  # noqa: S608
        start = int(top or 0) + 1
    return Action(
        f,
        f"recreate the sequence starting at {start}",
        None,
        [f"CREATE SEQUENCE ldiv.{quote(seq)} START {start}"],
    )


def plan(db: Database, state: State) -> list[Action]:
    actions: list[Action] = []
    for f in state.findings:
        if f.what == "migration":
            continue
        if f.what == "sequence":
            actions.append(_sequence_action(db, f, state))
        else:
            actions.append(_table_action(db, f, state))
    blocked = {a.finding.version for a in actions if a.repair is None}
    shipped = {m.version: m for m in shipped_migrations()}
    for f in state.findings:
        if f.what != "migration":
            continue
        if f.kind == "newer":
            actions.append(
                Action(
                    f, None, "upgrade ldiv_db to use this file (this version does not know that migration)"
                )
            )
        elif f.version in blocked:
            actions.append(Action(f, None, "some of its objects cannot be repaired (see above)"))
        else:
            m = shipped[f.version]
            what = (
                "record the shipped checksum (every object of the migration is as shipped: its tables' "
                "columns and types, its sequences); or restore the file from a backup"
                if f.kind == "changed"
                else "record it (its objects are all present)"
            )
            actions.append(Action(f, what, None, record=(m.version, m.name, m.checksum)))
    return actions


def doctor(target: Any, *, repair: bool = False) -> DoctorResult:
    """Inspect (and with ``repair`` restore what can be restored safely) the ldiv schema of ``target``."""
    if isinstance(target, str) and is_postgres_url(target):
        return _server(target, repair)
    if isinstance(target, str | Path) and str(target) != ":memory:" and not Path(target).exists():
        raise BadInput(f"database file {target} does not exist", "check the path; doctor creates nothing")
    db = Database.open(target, mode="write" if repair else "read", migrate=False)
    try:
        state = inspect(db)
        actions = plan(db, state)
        todo = [a for a in actions if a.repair is not None]
        if repair and todo:
            with db.transaction():
                for a in todo:
                    for sql in a.sql:
                        db.execute_script(f"doctor: {a.finding.name}", sql)
                    if a.record is not None and a.finding.kind == "changed":
                        db.raw_rows("DELETE FROM ldiv.schema_migration WHERE version = ?", [a.record[0]])
                    if a.record is not None:
                        db.raw_rows(
                            "INSERT INTO ldiv.schema_migration (version, name, checksum) VALUES (?, ?, ?)",
                            list(a.record),
                        )
            state = inspect(db)
        return DoctorResult(
            str(db.path or "database"),
            state.version,
            expected(db).latest,
            actions,
            repair=repair,
            healthy=state.healthy,
            stale_runs=_stale_runs(db, repair) if state.healthy and state.version > 0 else [],
        )
    finally:
        if db is not target:
            db.close()


def _stale_runs(db: Database, repair: bool) -> list[tuple[int, str]]:
    """The runs left ``running`` whose owner is gone (:func:`ldiv_db.schema.runs.stale_runs`), ended
    now with ``repair``."""
    if repair:
        return mark_stale_runs(db)
    return [(run, "running") for run in stale_runs(db)]


def _server(url: str, repair: bool) -> DoctorResult:
    """On PostgreSQL every open checks the recorded migrations and their checksums (a mismatch is
    refused there); the doctor reports the runs left ``running`` whose session is gone."""
    db = Database.open(url, mode="write" if repair else "read", migrate=not repair)
    try:
        return DoctorResult(
            display_url(url),
            len(applied_migrations(db)),
            len(shipped_migrations()),
            [],
            repair=repair,
            healthy=True,
            stale_runs=_stale_runs(db, repair),
        )
    finally:
        db.close()
