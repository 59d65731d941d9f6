-- purpose: (l_1,...,l_k)-diversity of an SA-table: per group the distinct values of every SA (NULL counts as a value), and the groups below l_i
-- params: ls
-- returns: groups, violating, min_group, then v1..vk (groups below l_i per SA)
-- ref: SPEC §4.1 ((l_1,...,l_k)-diversity, distinct form). With stats: the same figures read from the group statistics
--      the shared evaluator computed on the same written SA-table with NULL a value (partition/group_stats.sql: one row per
--      group and SA, size = the group's rows, n_values = its distinct values), instead of grouping the table a second time
{% if stats | default(none) %}
WITH d AS (
    SELECT gid AS g, max(size) AS n{% for c in sa %},
           max(n_values) FILTER (WHERE s = {{ loop.index }}) AS {{ ('d' ~ loop.index) | ident }}{% endfor %}

    FROM {{ stats | table }}
    GROUP BY gid
)
{% else %}
WITH d AS (
    SELECT {{ group_column | ident }} AS g, count(*) AS n{% for c in sa %},
           count(DISTINCT {{ c | ident }}) + max(CASE WHEN {{ c | ident }} IS NULL THEN 1 ELSE 0 END) AS {{ ('d' ~ loop.index) | ident }}{% endfor %}

    FROM {{ target | table }}
    GROUP BY {{ group_column | ident }}
)
{% endif %}
SELECT count(*) AS groups,
       count(*) FILTER (WHERE {% for c in sa %}{{ ('d' ~ loop.index) | ident }} < $ls[{{ loop.index }}]{% if not loop.last %} OR {% endif %}{% endfor %}) AS violating,
       min(n) AS min_group{% for c in sa %},
       count(*) FILTER (WHERE {{ ('d' ~ loop.index) | ident }} < $ls[{{ loop.index }}]) AS {{ ('v' ~ loop.index) | ident }}{% endfor %}

FROM d
