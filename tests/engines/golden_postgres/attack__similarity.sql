/* purpose: similarity attack (PostgreSQL: the DuckDB template's structs and list-ordered arg_max as JSON objects and ordered array_agg) */
/* params: none */
/* returns: one row: groups, rows, single_category_groups, single_category_rows, top_value (object n, size, v, gid), top_category (object n, size, category, gid) */
/* ref: the DuckDB template similarity.sql (same ties: the larger confidence, the more sensitive category or the value first in text order, then the first group) */
/*      the groups' order and a group's values are ranked in the bytes' order of character values (COLLATE "C"; texts per key), on every engine whatever the database's collation */
WITH cells AS (
  SELECT
    "it's",
    "a""b",
    "Zip Code",
    "select",
    CAST("ünï" AS TEXT) AS v,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY
    1,
    2,
    3,
    4,
    5
), labeled AS (
  SELECT
    DENSE_RANK() OVER (
      ORDER BY "it's" COLLATE "C", "a""b", "Zip Code" COLLATE "C", "select" COLLATE "C"
    ) AS gid,
    c.v,
    c.n,
    cat.category,
    DENSE_RANK() OVER (ORDER BY c.v COLLATE "C") AS vrank
  FROM cells AS c
  LEFT JOIN "pg_temp"."wk attack categories's" AS cat
    ON (
      cat.v IS NULL
    ) = (
      c.v IS NULL
    )
    AND COALESCE(CAST(cat.v AS TEXT), '') = COALESCE(CAST(c.v AS TEXT), '')
), per_category AS (
  SELECT
    gid,
    category,
    SUM(n) AS n
  FROM labeled
  GROUP BY
    gid,
    category
), per_group AS (
  SELECT
    gid,
    SUM(n) AS size,
    COUNT(DISTINCT category) AS n_categories,
    MAX(n) AS value_n,
    (
      ARRAY_AGG(v ORDER BY n DESC NULLS LAST, rank_v)
    )[1] AS value_v,
    (
      ARRAY_AGG(vrank ORDER BY n DESC NULLS LAST, rank_v)
    )[1] AS value_vrank
  FROM (
    SELECT
      *,
      ROW_NUMBER() OVER (PARTITION BY gid ORDER BY v COLLATE "C") AS rank_v
    FROM labeled
  ) AS ranked
  GROUP BY
    gid
), per_group_category AS (
  SELECT
    gid,
    MAX(n) AS category_n,
    (
      ARRAY_AGG(category ORDER BY n DESC NULLS LAST, category)
    )[1] AS category_top
  FROM per_category
  GROUP BY
    gid
), joined AS (
  SELECT
    g.*,
    pc.category_n,
    pc.category_top
  FROM per_group AS g
  JOIN per_group_category AS pc
    ON pc.gid = g.gid
)
SELECT
  COUNT(*) AS groups,
  SUM(size) AS rows,
  COUNT(*) FILTER(WHERE
    n_categories = 1) AS single_category_groups,
  COALESCE(SUM(size) FILTER(WHERE
    n_categories = 1), 0) AS single_category_rows,
  (
    ARRAY_AGG(
      JSON_BUILD_OBJECT('n', value_n, 'size', size, 'v', value_v, 'gid', gid) ORDER BY CAST(value_n AS DOUBLE PRECISION) / size DESC NULLS LAST, value_vrank, gid
    )
  )[1] AS top_value,
  (
    ARRAY_AGG(
      JSON_BUILD_OBJECT('n', category_n, 'size', size, 'category', category_top, 'gid', gid) ORDER BY CAST(category_n AS DOUBLE PRECISION) / size DESC NULLS LAST, category_top, gid
    )
  )[1] AS top_category
FROM joined
