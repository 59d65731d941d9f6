"""Who owns a ``running`` run, per engine (issue 51, class 9: a run is never left ``running``).

A run's process records its end. When it cannot — the process was killed, or its connection died — the
next write command that opens the database ends the runs whose owner is gone
(:func:`ldiv_db.schema.runs.mark_stale_runs`), and ``ldiv doctor`` reports them. How an engine knows
that the owner is gone:

* DuckDB (this default): one process at a time opens a file for writing, so a ``running`` row that a new
  writer sees belongs to a stopped process (unless this very process runs it);
* PostgreSQL (:mod:`.postgres.owners`): the run's session holds an advisory lock on the run id from before
  its row is visible until it ends; a lock that can be taken means the session is gone (terminated,
  the server restarted, the process killed);
* Spark: no session outlives its process and nothing can tell a live run from a dead one: runs are
  never marked (see the README's Spark section).
"""

from __future__ import annotations

from typing import Any


class RunOwners:
    """The engine's side of run ownership (mixed into :class:`ldiv_db.db.Database`)."""

    # how a run whose owner is gone ends when its release was not committed: a DuckDB writer gone is a
    # stopped process (Ctrl-C's status); on a server the session was lost, an error
    stale_status = "interrupted"

    def claim_run(self, run_id: int) -> None:
        """Make this session the owner of ``run_id``, before its ``running`` row becomes visible."""

    def release_run(self, run_id: int) -> None:
        """The run has ended: this session no longer owns it."""

    def owners_gone(self, run_ids: list[int]) -> list[int]:
        """Which of these ``running`` runs (none of this process's) have lost their owner."""
        return list(run_ids)

    def connection_lost(self) -> bool:
        """Whether this session's connection is gone (statements can no longer run on it)."""
        return False

    def fresh_session(self) -> Any:
        """A new connection to the same database, to record a run's end when this one is lost; None
        where there is none to open."""
        return None
