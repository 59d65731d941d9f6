-- purpose: similarity attack (Sun, Li, Wang 2010 §1, Table 5): per group (rows with equal key values: the published QI labels or a group column), whether every SA value falls in one sensitivity category, and the largest confidence of a value and of a category in a group
-- params: none
-- returns: one row (ties: the more sensitive category, the value first in text order, then the first group in key order): groups, rows, single_category_groups, single_category_rows, top_value (struct n, size, v, gid), top_category (struct n, size, category, gid)
-- ref: SPEC §3 (categories), §3.2 (Table 5 is the similarity-attack example); confidences are n/size, reported exactly by the controller
--      the groups' order and a group's values are ranked in the bytes' order of character values (COLLATE "C"; texts per key), on every engine whatever the database's collation
WITH cells AS (
    SELECT {{ keys | idents }}, CAST({{ sa | ident }} AS VARCHAR) AS v, count(*) AS n
    FROM {{ source | table }}
    GROUP BY ALL
), labeled AS (
    SELECT dense_rank() OVER (ORDER BY {% for k in keys %}{{ k | ident }}{% if texts[loop.index0] %} COLLATE "C"{% endif %}{% if not loop.last %}, {% endif %}{% endfor %}) AS gid, c.v, c.n, cat.category,
           dense_rank() OVER (ORDER BY c.v COLLATE "C") AS vrank
    FROM cells AS c
    LEFT JOIN {{ categories | table }} AS cat ON cat.v IS NOT DISTINCT FROM c.v
), per_category AS (
    SELECT gid, category, sum(n) AS n FROM labeled GROUP BY gid, category
), per_group AS (
    SELECT gid, sum(n) AS size, count(DISTINCT category) AS n_categories,
           max(n) AS value_n, arg_max(v, [n, -rank_v]) AS value_v, arg_max(vrank, [n, -rank_v]) AS value_vrank
    FROM (SELECT *, row_number() OVER (PARTITION BY gid ORDER BY v COLLATE "C") AS rank_v FROM labeled)
    GROUP BY gid
), per_group_category AS (
    SELECT gid, max(n) AS category_n, arg_max(category, [n, -category]) AS category_top
    FROM per_category GROUP BY gid
), joined AS (
    SELECT g.*, pc.category_n, pc.category_top
    FROM per_group AS g JOIN per_group_category AS pc ON pc.gid = g.gid
)
SELECT count(*) AS groups,
       sum(size) AS rows,
       count(*) FILTER (WHERE n_categories = 1) AS single_category_groups,
       coalesce(sum(size) FILTER (WHERE n_categories = 1), 0) AS single_category_rows,
       arg_max({'n': value_n, 'size': size, 'v': value_v, 'gid': gid},
               [CAST(value_n AS DOUBLE) / size, -value_vrank, -gid]) AS top_value,
       arg_max({'n': category_n, 'size': size, 'category': category_top, 'gid': gid},
               [CAST(category_n AS DOUBLE) / size, -category_top, -gid]) AS top_category
FROM joined
