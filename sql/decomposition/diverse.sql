-- purpose: (l_1,...,l_k)-diversity of an SA-table: per group the distinct values of every SA (NULL counts as a value), and the groups below l_i
-- params: ls
-- returns: groups, violating, min_group, then v1..vk (groups below l_i per SA)
-- ref: SPEC §4.1 ((l_1,...,l_k)-diversity, distinct form)
WITH d AS (
    SELECT {{ group_column | ident }} AS g, count(*) AS n{% for c in sa %},
           count(DISTINCT {{ c | ident }}) + max(CASE WHEN {{ c | ident }} IS NULL THEN 1 ELSE 0 END) AS {{ ('d' ~ loop.index) | ident }}{% endfor %}

    FROM {{ target | table }}
    GROUP BY {{ group_column | ident }}
)
SELECT count(*) AS groups,
       count(*) FILTER (WHERE {% for c in sa %}{{ ('d' ~ loop.index) | ident }} < $ls[{{ loop.index }}]{% if not loop.last %} OR {% endif %}{% endfor %}) AS violating,
       min(n) AS min_group{% for c in sa %},
       count(*) FILTER (WHERE {{ ('d' ~ loop.index) | ident }} < $ls[{{ loop.index }}]) AS {{ ('v' ~ loop.index) | ident }}{% endfor %}

FROM d
