-- purpose: how many groups and rows violate the model, and which groups are the worst
-- params: worst
-- returns: violating_groups, violating_rows, worst_gids (up to $worst gids, worst first: severity, then size)
-- ref: issue 2 item 7
SELECT
    count(*) FILTER (WHERE NOT ok) AS violating_groups,
    CAST(coalesce(sum(size) FILTER (WHERE NOT ok), 0) AS BIGINT) AS violating_rows,
    (SELECT coalesce(list(gid), []) FROM (
        {% include "_macros/worst_violators.sql" %}
    )) AS worst_gids
FROM {{ verdict | table }}
