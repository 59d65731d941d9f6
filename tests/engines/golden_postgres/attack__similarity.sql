/* purpose: similarity attack (Sun, Li, Wang 2010 §1, Table 5): per group (rows with equal key values: the published QI labels or a group column), whether every SA value falls in one sensitivity category, and the largest confidence of a value and of a category in a group */
/* params: none */
/* returns: one row (ties: the more sensitive category, then the first group in label order): groups, rows, single_category_groups, single_category_rows, top_value (struct n, size, v, gid), top_category (struct n, size, category, gid) */
/* ref: SPEC §3 (categories), §3.2 (Table 5 is the similarity-attack example); confidences are n/size, reported exactly by the controller */
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
    DENSE_RANK() OVER (ORDER BY "it's", "a""b", "Zip Code", "select") AS gid,
    c.v,
    c.n,
    cat.category
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
      ARRAY_AGG(v ORDER BY (
        ARRAY[n, -rank_v]
      ) DESC)
    )[1] AS value_v
  FROM (
    SELECT
      *,
      ROW_NUMBER() OVER (PARTITION BY gid ORDER BY v) AS rank_v
    FROM labeled
  ) AS ldiv_sq0
  GROUP BY
    gid
), per_group_category AS (
  SELECT
    gid,
    MAX(n) AS category_n,
    (
      ARRAY_AGG(category ORDER BY (
        ARRAY[n, -category]
      ) DESC)
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
      (
        STRUCT(value_n AS n, size AS size, value_v AS v, gid AS gid)
      ) ORDER BY (
        ARRAY[CAST(value_n AS DOUBLE PRECISION) / size, -gid]
      ) DESC
    )
  )[1] AS top_value,
  (
    ARRAY_AGG(
      (
        STRUCT(category_n AS n, size AS size, category_top AS category, gid AS gid)
      ) ORDER BY (
        ARRAY[CAST(category_n AS DOUBLE PRECISION) / size, -category_top, -gid]
      ) DESC
    )
  )[1] AS top_category
FROM joined
