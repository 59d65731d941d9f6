-- purpose: how many groups and rows violate the model, and which groups are the worst
-- params: worst
-- returns: violating_groups, violating_rows, worst_gids (up to $worst gids, worst first: severity, then size, then gid), worst_severities and worst_sizes (theirs, in the same order)
-- ref: issue 2 item 7; a partitioned check (ldiv_db/verify/check.py) merges the worst groups of its parts by their severity and size
WITH w AS (
    {% include "_macros/worst_violators.sql" %}
), worst AS (
    SELECT
        coalesce(list(gid ORDER BY severity DESC, size DESC, gid), []) AS gids,
        coalesce(list(severity ORDER BY severity DESC, size DESC, gid), []) AS severities,
        coalesce(list(size ORDER BY severity DESC, size DESC, gid), []) AS sizes
    FROM w
)
SELECT
    count(*) FILTER (WHERE NOT ok) AS violating_groups,
    CAST(coalesce(sum(size) FILTER (WHERE NOT ok), 0) AS BIGINT) AS violating_rows,
    (SELECT gids FROM worst) AS worst_gids,
    (SELECT severities FROM worst) AS worst_severities,
    (SELECT sizes FROM worst) AS worst_sizes
FROM {{ verdict | table }}
