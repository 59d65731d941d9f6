/* purpose: similarity attack (Sun, Li, Wang 2010 §1, Table 5): per group (rows with equal key values: the published QI labels or a group column), whether every SA value falls in one sensitivity category, and the largest confidence of a value and of a category in a group */
/* params: none */
/* returns: one row (ties: the more sensitive category, the value first in text order, then the first group in key order): groups, rows, single_category_groups, single_category_rows, top_value (struct n, size, v, gid), top_category (struct n, size, category, gid) */
/* ref: SPEC §3 (categories), §3.2 (Table 5 is the similarity-attack example); confidences are n/size, reported exactly by the controller */
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
  GROUP BY ALL
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
  LEFT JOIN "temp"."main"."wk attack categories's" AS cat
    ON cat.v IS NOT DISTINCT FROM c.v
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
    ARG_MAX(v, [n, -rank_v]) AS value_v,
    ARG_MAX(vrank, [n, -rank_v]) AS value_vrank
  FROM (
    SELECT
      *,
      ROW_NUMBER() OVER (PARTITION BY gid ORDER BY v COLLATE "C") AS rank_v
    FROM labeled
  )
  GROUP BY
    gid
), per_group_category AS (
  SELECT
    gid,
    MAX(n) AS category_n,
    ARG_MAX(category, [n, -category]) AS category_top
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
  ARG_MAX(
    {'n': value_n, 'size': size, 'v': value_v, 'gid': gid},
    [CAST(value_n AS DOUBLE) / size, -value_vrank, -gid]
  ) AS top_value,
  ARG_MAX(
    {'n': category_n, 'size': size, 'category': category_top, 'gid': gid},
    [CAST(category_n AS DOUBLE) / size, -category_top, -gid]
  ) AS top_category
FROM joined
