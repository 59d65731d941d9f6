-- purpose: the key values (QI tuple or group column) and size of selected groups, for reports
-- params: gids
-- returns: gid, size, k1..kd, one row per group found, in no order; with raw_id, gid is that integer column as it stands (a written release's group id) and k1..kd the keys' values of that group
-- ref: issue 2 item 7 (the worst groups); one scan of the source, only when groups are reported; no ORDER BY: the caller names the groups by gid (core/evaluator.py: SqlEvaluator.group_keys), and a sort is one more operator to plan on every check (issue 57 item 1, round 6)
WITH t AS (
    SELECT
{% set raw_id = raw_id | default(none) %}
{% if raw_id %}
        CAST({{ raw_id | ident }} AS BIGINT) AS gid,
{% elif exact_ids %}
        dense_rank() OVER (ORDER BY {{ keys | idents }}) AS gid,
{% else %}
        CAST(hash({{ keys | idents }}) >> 1 AS BIGINT) AS gid,
{% endif %}
{% for key in keys %}
        {{ key | ident }} AS {{ ('k' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
    FROM {{ source | table }}
)
SELECT gid, count(*) AS size{% for key in keys %}, any_value({{ ('k' ~ loop.index) | ident }}) AS {{ ('k' ~ loop.index) | ident }}{% endfor %}

FROM t
WHERE gid = ANY($gids)
GROUP BY gid
