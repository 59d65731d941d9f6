-- purpose: similarity attack (PostgreSQL: the DuckDB template's structs and list-ordered arg_max as JSON objects and ordered array_agg)
-- params: none
-- returns: one row: groups, rows, single_category_groups, single_category_rows, top_value (object n, size, v, gid), top_category (object n, size, category, gid)
-- ref: the DuckDB template similarity.sql (same ties: the larger confidence, the more sensitive category or the value first in text order, then the first group)
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
           max(n) AS value_n, (array_agg(v ORDER BY n DESC, rank_v))[1] AS value_v,
           (array_agg(vrank ORDER BY n DESC, rank_v))[1] AS value_vrank
    FROM (SELECT *, row_number() OVER (PARTITION BY gid ORDER BY v COLLATE "C") AS rank_v FROM labeled) AS ranked
    GROUP BY gid
), per_group_category AS (
    SELECT gid, max(n) AS category_n, (array_agg(category ORDER BY n DESC, category))[1] AS category_top
    FROM per_category GROUP BY gid
), joined AS (
    SELECT g.*, pc.category_n, pc.category_top
    FROM per_group AS g JOIN per_group_category AS pc ON pc.gid = g.gid
)
SELECT count(*) AS groups,
       sum(size) AS rows,
       count(*) FILTER (WHERE n_categories = 1) AS single_category_groups,
       coalesce(sum(size) FILTER (WHERE n_categories = 1), 0) AS single_category_rows,
       (array_agg(json_build_object('n', value_n, 'size', size, 'v', value_v, 'gid', gid)
                  ORDER BY CAST(value_n AS DOUBLE) / size DESC, value_vrank, gid))[1] AS top_value,
       (array_agg(json_build_object('n', category_n, 'size', size, 'category', category_top, 'gid', gid)
                  ORDER BY CAST(category_n AS DOUBLE) / size DESC, category_top, gid))[1] AS top_category
FROM joined
