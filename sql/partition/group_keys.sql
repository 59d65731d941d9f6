-- purpose: the key values (QI tuple or group column) and size of selected groups, for reports
-- params: gids
-- returns: gid, size, k1..kd
-- ref: issue 2 item 7 (the worst groups)
SELECT
    gid,
    CAST(sum(n) FILTER (WHERE s = 1) AS BIGINT) AS size,
{% for key in keys %}
    any_value({{ ('k' ~ loop.index) | ident }}) AS {{ ('k' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
FROM {{ hist | table }}
WHERE list_contains($gids, gid)
GROUP BY gid
ORDER BY gid
