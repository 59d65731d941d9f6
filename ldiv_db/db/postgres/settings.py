"""The settings of ldiv_db's PostgreSQL sessions, and the plan hints' settings (``ldiv_db/db/postgres/engine.py``
applies them): why each is what it is. The measurements behind them: bench/results/history.md,
"Engine base" (PostgreSQL settings)."""

from __future__ import annotations

import os
import re

from ...errors import BadInput
from ...sqlgen.render import quote

# A work table created from a query is analyzed from this many rows on (autovacuum never analyzes
# temporary tables, and without column statistics a join of two large ones may be planned as a nested
# loop); below it the estimate from the table's size serves and ANALYZE costs more than it saves, except
# for a template with the lookup hint, whose small table a large join looks values up in.
ANALYZE_MIN_ROWS = 100_000  # and never for a template with the read-whole hint (render.PLAN_HINTS)
# A template's plan hints (render.PLAN_HINTS) as settings for its statements only. many-groups: a hash
# aggregate runs in the leader alone, where sorting runs in the parallel workers, which pays only when
# the aggregation makes a group for every few rows (release/aggregate.sql is hinted by its caller only
# for a release of small groups: ldiv_db/pipeline/verify.py's FEW_ROWS). Over a source of at most
# SMALL_SOURCE_ROWS rows no hint applies: no parallel plan is chosen there, and hashing is faster.
# joins-in-order: the joins as written (hilbert/coords.sql: a group's rows first, then their values' ranks).
HINT_SETTINGS = {"many-groups": ("enable_hashagg", "off"), "joins-in-order": ("join_collapse_limit", "1")}
# Session settings for ldiv_db's statements, which are few, large and analytic: no JIT compilation (it
# costs more than it saves at these sizes); more memory for hash aggregates and joins over work tables
# before they spill (LDIV_PG_WORK_MEM); nested loops discouraged (ldiv_db's joins are equi-joins over
# whole tables, and null-safe equalities over several columns collapse the planner's row estimates);
# a smaller statistics sample (work tables hold ids and counts, whose row and distinct counts a small
# sample gives); larger temporary buffers (LDIV_PG_TEMP_BUFFERS), taken only as work tables grow.
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
    they create there unlogged and out of autovacuum's reach: a vacuum of a running release's work table
    takes CPU the run wants and holds up the schema's DROP at its end. ldiv_db analyzes its work tables
    itself and drops them at the end of the run."""
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
