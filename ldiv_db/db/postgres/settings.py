"""The settings of ldiv_db's PostgreSQL sessions, and the plan hints' settings (``ldiv_db/db/postgres/engine.py``
applies them): why each is what it is, with what was measured."""

from __future__ import annotations

import os
import re

from ...errors import BadInput
from ...sqlgen.render import quote

# a work table created from a query is analyzed (autovacuum never analyzes temporary tables; without
# column statistics a join of two large ones may be planned as a nested loop) from this many rows on;
# below it the planner's estimate from the table's size serves, and ANALYZE would cost more than it saves
# — except for a table made by a template with the lookup hint: a never-analyzed table of 14 rows was
# planned as 1,200, and the million-row join that looked values up in it as a merge join that sorted the
# source (TP's row map: 1.0 s; analyzed, a parallel hash join: 0.57-0.60 s)
ANALYZE_MIN_ROWS = 100_000  # and never for a template with the read-whole hint (render.PLAN_HINTS)
# a template's plan hints (render.PLAN_HINTS) as settings for its statements only. many-groups: a hash
# aggregate runs in the leader alone, where sorting runs in the parallel workers and the groups stream
# out of the merge (1M rows: the check's histogram into 858,000 groups 1.6 → 1.3 s, its statistics into
# 662,000 1.2 → 0.75 s; TP+'s labels into 190,000 2.3 → 1.5 s, TP's cells 2.4 → 2.0 s). Into few groups
# sorting loses (those labels into 1,024 groups: 0.74 s hashed, 0.93 sorted; a generalized release's
# aggregate, 287,000 distinct rows: 0.86 against 1.46 s, so release/aggregate.sql is hinted by its caller
# only for a release of small groups, ldiv_db/pipeline/verify.py's FEW_ROWS). Over a
# source of at most SMALL_SOURCE_ROWS rows no hint applies: no parallel plan is chosen there, and in one
# process hashing is the faster aggregate (Adult's histogram, 30,162 rows into 18,109 groups: 42 → 34 ms)
# joins-in-order: the joins as written (hilbert/coords.sql: a group's rows first, then their values' ranks).
HINT_SETTINGS = {"many-groups": ("enable_hashagg", "off"), "joins-in-order": ("join_collapse_limit", "1")}
# Session settings for ldiv_db's statements: they are few, large and analytic. JIT compilation costs
# more than it saves at these sizes; hash aggregates and joins over work tables want more than the
# default 4 MB before they spill (LDIV_PG_WORK_MEM overrides). Nested loops are discouraged (the planner
# still uses one where no other join method applies): ldiv_db's joins are equi-joins over whole tables,
# and null-safe key equalities over several columns make the planner's row estimates collapse to 1 —
# on a million rows that turned one hash join into a 23-second nested loop.
#
# Statistics: ANALYZE samples 300 rows per unit of default_statistics_target. Work tables hold ids and
# counts, for which row counts and distinct counts are what the planner needs; 6,000 sampled rows give
# them, where the default 30,000 cost 0.1 s per million-row table.
#
# Temporary tables live in the session's own buffers, 8 MB by default; beyond that every write and scan
# of a work table goes through the operating system's cache. A million-row check's part makes ~75 MB of
# them (histogram, statistics, verdict): with temp_buffers at 256MB (LDIV_PG_TEMP_BUFFERS overrides;
# taken only as the tables grow) the statements after its histogram took 0.83-0.85 s of the server's
# CPU instead of 0.89-0.91 s (three runs each, alternating; a small gain the wall clock does not show).
# The environment's values are validated here: a bad one is an error that names the variable, where the
# server's refusal read as "cannot reach the server".
_NO_AUTOVACUUM = "autovacuum_enabled = false, toast.autovacuum_enabled = false"  # a run's work tables
_MEMORY = re.compile(r"[1-9][0-9]{0,9}(kB|MB|GB|TB)?")
_SIZE = "a memory size for each PostgreSQL session"
_DURATION = re.compile(r"[0-9]{1,9}(ms|s|min|h|d)?")


def session_options() -> str:
    """The ``options`` of ldiv_db's connections: the settings above, memory sizes as the environment sets
    them (validated: a bad value is an error that names the variable, not the server's refusal)."""
    settings = {
        "lock_timeout": _setting(
            "LDIV_LOCK_TIMEOUT", "10s", _DURATION, "a time another session's lock is waited for"
        ),
        "client_encoding": "UTF8",
        "jit": "off",
        "default_statistics_target": "20",
        "enable_nestloop": "off",
        "parallel_setup_cost": "100",
        "parallel_tuple_cost": "0.001",
        "work_mem": _setting("LDIV_PG_WORK_MEM", "256MB", _MEMORY, _SIZE),
        "temp_buffers": _setting("LDIV_PG_TEMP_BUFFERS", "256MB", _MEMORY, _SIZE),
    }
    return " ".join(f"-c {name}={value}" for name, value in settings.items())


def _setting(variable: str, default: str, form: re.Pattern[str], what: str) -> str:
    value = os.environ.get(variable, default).strip()
    if not form.fullmatch(value):
        units = "kB, MB, GB or TB" if form is _MEMORY else "ms, s, min, h or d"
        raise BadInput(
            f"{variable} is {value!r}; it is {what}",
            f"set a value such as {default} (a whole number with {units}), or unset it",
        )
    return value


def unlogged_work(statements: list[str], schema: str) -> list[str]:
    """The statements of a run's work schema (:meth:`PostgresDatabase.parallel_work`) with every table
    they create there unlogged and out of autovacuum's reach. Autovacuum visits a database once a minute
    and took up a million-row work table of a running release (CPU the run wanted); the run's end then
    waited for the schema's DROP until the server cancelled that vacuum, one second later
    (deadlock_timeout): the schema's drop took 1.06-1.29 s in two of three tp+ runs at 1M, 0.06 s in the
    third. ldiv_db analyzes its work tables itself and drops them at the end of the run."""
    made = re.compile(rf"CREATE TABLE ({re.escape(quote(schema))}\.\"(?:[^\"]|\"\")*\")( AS )?")
    out: list[str] = []
    for sql in statements:
        found = made.search(sql)
        if found is None:
            out.append(sql)
        elif found.group(2):  # created from a query: the option goes before AS
            name = found.group(1)
            option = f"CREATE UNLOGGED TABLE {name} WITH ({_NO_AUTOVACUUM}) AS "
            out.append(sql[: found.start()] + option + sql[found.end() :])
        else:  # created with its columns, empty: the option is set right after
            out.append(sql[: found.start()] + f"CREATE UNLOGGED TABLE {found.group(1)}" + sql[found.end() :])
            out.append(f"ALTER TABLE {found.group(1)} SET ({_NO_AUTOVACUUM})")
    return out
