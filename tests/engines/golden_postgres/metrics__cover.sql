DROP TABLE IF EXISTS "pg_temp"."wk metrics cover's";
/* purpose: the cover of every release label — the domain values it stands for: the leaves under a node, the whole domain for '*', the value itself for a leaf, the domain values inside an interval (n_attrs: the QI attributes, numbered 1..n_attrs) */
/* params: none */
/* returns: creates target(attr, label, value, num) */
/* ref: metrics/cover.sql, whose rows this is; PostgreSQL has no range join: an interval's values (num between lo and hi) were a */
/*      nested loop over every label and value of the attribute, quadratic where a QI has a value per row (decision 0038; */
/*      bench/results/history.md, "Round 24: PostgreSQL on the shapes"): the intervals read their values' ranks instead */
CREATE TABLE "pg_temp"."wk metrics cover's" AS
WITH ranked AS (
  SELECT
    attr,
    value,
    num,
    ROW_NUMBER() OVER (PARTITION BY attr ORDER BY num, value) AS r
  FROM "pg_temp"."wk metrics domain's"
  WHERE
    NOT num IS NULL
), points AS (
  SELECT
    attr,
    num AS x,
    0 AS side,
    CAST(NULL AS TEXT) AS label
  FROM ranked
  UNION ALL
  SELECT
    attr,
    lo,
    -1,
    label
  FROM "pg_temp"."wk metrics labels's"
  WHERE
    kind = 'interval' AND NOT lo IS NULL AND NOT hi IS NULL
  UNION ALL
  SELECT
    attr,
    hi,
    1,
    label
  FROM "pg_temp"."wk metrics labels's"
  WHERE
    kind = 'interval' AND NOT lo IS NULL AND NOT hi IS NULL
), placed AS (
  SELECT
    attr,
    label,
    side,
    SUM(CASE WHEN side = 0 THEN 1 ELSE 0 END) OVER (
      PARTITION BY attr
      ORDER BY x, side
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS below
  FROM points
), spans AS (
  SELECT
    attr,
    label,
    MAX(CASE WHEN side = -1 THEN below END) + 1 AS first,
    MAX(CASE WHEN side = 1 THEN below END) AS last
  FROM placed
  WHERE
    side <> 0
  GROUP BY
    attr,
    label
)
SELECT
  l.attr,
  l.label,
  d.value,
  d.num
FROM "pg_temp"."wk metrics labels's" AS l
JOIN "pg_temp"."wk metrics domain's" AS d
  ON d.attr = l.attr AND d.value = l.label
WHERE
  l.kind = 'leaf'
UNION ALL
SELECT
  l.attr,
  l.label,
  d.value,
  d.num
FROM "pg_temp"."wk metrics labels's" AS l
JOIN "pg_temp"."wk metrics domain's" AS d
  ON d.attr = l.attr
WHERE
  l.kind = 'star'
UNION ALL
SELECT DISTINCT
  l.attr,
  l.label,
  d.value,
  d.num
FROM "pg_temp"."wk metrics labels's" AS l
JOIN ldiv.hierarchy_level AS hl
  ON hl.hierarchy_id = l.hierarchy_id AND hl.label = l.label
JOIN "pg_temp"."wk metrics domain's" AS d
  ON d.attr = l.attr AND d.value = hl.leaf
WHERE
  l.kind = 'node'
UNION ALL
SELECT
  e.attr,
  e.label,
  d.value,
  d.num
FROM (
  SELECT
    s.attr,
    s.label,
    g.r
  FROM spans AS s
  CROSS JOIN GENERATE_SERIES(s.first, s.last + 1 - 1) AS g(r)
) AS e
JOIN ranked AS d
  ON d.attr = e.attr AND d.r = e.r;
ANALYZE "pg_temp"."wk metrics cover's"
