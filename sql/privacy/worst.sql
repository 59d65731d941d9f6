-- purpose: the worst violating groups of a verdict with their severity and size, worst first (the order of privacy/summary.sql's worst_gids)
-- params: worst
-- returns: gid, severity, size (at most $worst rows)
-- ref: issue 2 item 7; a partitioned check (ldiv_db/check.py) merges the worst groups of its parts by these columns
{% include "_macros/worst_violators.sql" %}
