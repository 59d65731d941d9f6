"""Run ownership on PostgreSQL (see :mod:`.owners`): a session-level advisory lock on (``LOCK_CLASS``,
run id), taken inside the transaction that inserts the run's ``running`` row, so the row is never
visible without its lock. The server releases the lock when the session ends in any way (closed,
``pg_terminate_backend``, the server stopped, the process killed), so a lock that another session can
take names a run whose owner is gone. Every role may take advisory locks; nothing is stored."""

from __future__ import annotations

import contextlib
from typing import Any

import psycopg

from ...errors import ConnectionLost
from ..owners import RunOwners

LOCK_CLASS = 0x6C646976  # "ldiv": the first key of ldiv_db's run locks (the second is the run id)

_LOCK = "SELECT pg_advisory_lock(%s, %s)"
_UNLOCK = "SELECT pg_advisory_unlock(%s, %s)"
# the runs whose lock this session can take (their owners are gone); it lets them go at once after
_GONE = "SELECT id FROM unnest(%s::int[]) AS t(id) WHERE pg_try_advisory_lock(%s, id) ORDER BY id"
_LET_GO = "SELECT pg_advisory_unlock(%s, id) FROM unnest(%s::int[]) AS t(id)"


class PgRunOwners(RunOwners):
    """Mixed into :class:`ldiv_db.db.postgres.engine.PostgresDatabase`."""

    pg: psycopg.Connection[Any]
    _url: str
    stale_status = "failed"

    def claim_run(self, run_id: int) -> None:
        try:
            self.pg.execute(_LOCK, (LOCK_CLASS, run_id))
        except psycopg.OperationalError as exc:
            raise ConnectionLost(
                f"lost the PostgreSQL connection while starting run {run_id}: {exc}"
            ) from None

    def release_run(self, run_id: int) -> None:
        if not self.connection_lost():
            with contextlib.suppress(psycopg.Error):
                self.pg.execute(_UNLOCK, (LOCK_CLASS, run_id))

    def owners_gone(self, run_ids: list[int]) -> list[int]:
        if not run_ids:
            return []
        with self.pg.cursor() as cur:
            gone = [int(r[0]) for r in cur.execute(_GONE, (run_ids, LOCK_CLASS)).fetchall()]
            if gone:
                cur.execute(_LET_GO, (LOCK_CLASS, gone))
        return gone

    def connection_lost(self) -> bool:
        return bool(self.pg.closed or self.pg.broken)

    def fresh_session(self) -> Any:
        return type(self).connect(self._url, mode="write", migrate=False)

    @classmethod
    def connect(cls, url: str, *, mode: str = "write", attach: Any = None, migrate: bool = True) -> Any:
        raise NotImplementedError  # PostgresDatabase.connect
