DROP TABLE IF EXISTS "pg_temp"."wk metrics domain's";
/* purpose: the domain of every QI attribute — the hierarchy's leaves where one is stored, else the distinct source values — with the number of source rows holding each value */
/* params: table_name, qi_names */
/* returns: creates target(attr, value, num, source_rows, code); value is the text form (CAST AS VARCHAR), num its number on numeric attributes (on an integer attribute its distance from the attribute's least value, exact), code the value's 0-based number in text order per attribute (KL's integer coding) */
/* ref: SPEC §0.7 (|A| = leaf count; "domain sizes for * come from the schema"); datasets README (ARX: domain size = hierarchy rows) */
CREATE TABLE "pg_temp"."wk metrics domain's" AS
WITH attrs AS (
  SELECT
    a.attr,
    a.is_numeric,
    a.intervals,
    a.is_integer,
    h.hierarchy_id
  FROM (VALUES
    (1, FALSE, FALSE, FALSE),
    (2, TRUE, TRUE, TRUE),
    (3, FALSE, FALSE, FALSE),
    (4, FALSE, FALSE, FALSE)) AS a(attr, is_numeric, intervals, is_integer)
  LEFT JOIN ldiv.hierarchy AS h
    ON h.table_name = (
      CAST(%(table_name)s AS TEXT)
    )
    AND h.column_name = (
      CAST(%(qi_names)s AS TEXT[])
    )[a.attr]
), src AS (
  SELECT
    1 AS attr,
    CAST("it's" AS TEXT) AS value,
    CAST(NULL AS DOUBLE PRECISION) AS num,
    COUNT(*) AS source_rows
  FROM "main"."select"
  WHERE
    NOT "it's" IS NULL
  GROUP BY
    1,
    2,
    3
  UNION ALL
  SELECT
    2 AS attr,
    CAST("a""b" AS TEXT) AS value,
    CAST("a""b" AS DOUBLE PRECISION) AS num,
    COUNT(*) AS source_rows
  FROM "main"."select"
  WHERE
    NOT "a""b" IS NULL
  GROUP BY
    1,
    2,
    3
  UNION ALL
  SELECT
    3 AS attr,
    CAST("Zip Code" AS TEXT) AS value,
    CAST(NULL AS DOUBLE PRECISION) AS num,
    COUNT(*) AS source_rows
  FROM "main"."select"
  WHERE
    NOT "Zip Code" IS NULL
  GROUP BY
    1,
    2,
    3
  UNION ALL
  SELECT
    4 AS attr,
    CAST("select" AS TEXT) AS value,
    CAST(NULL AS DOUBLE PRECISION) AS num,
    COUNT(*) AS source_rows
  FROM "main"."select"
  WHERE
    NOT "select" IS NULL
  GROUP BY
    1,
    2,
    3
), leaf AS (
  SELECT
    a.attr,
    n.label AS value,
    CASE WHEN a.is_numeric THEN COALESCE(n.lo, CAST(n.label AS DOUBLE PRECISION)) END AS num
  FROM attrs AS a
  JOIN ldiv.hierarchy_node AS n
    ON n.hierarchy_id = a.hierarchy_id AND n.height = 0
), joined AS (
  SELECT
    COALESCE(l.attr, s.attr) AS attr,
    COALESCE(l.value, s.value) AS value,
    COALESCE(s.num, l.num) AS num,
    COALESCE(s.source_rows, 0) AS source_rows
  FROM leaf AS l
  FULL JOIN src AS s
    ON s.attr = l.attr AND s.value = l.value
), exact AS (
  SELECT
    j.*,
    CASE
      WHEN a.is_integer AND j.value COLLATE "C" ~ '^-?[0-9]{1,38}$'
      THEN CAST(j.value AS DECIMAL(38, 0))
    END AS whole
  FROM joined AS j
  JOIN attrs AS a
    ON a.attr = j.attr
), based AS (
  SELECT
    *,
    MIN(whole) OVER (PARTITION BY attr) AS base
  FROM exact
)
SELECT
  attr,
  value,
  CASE
    WHEN base IS NULL
    THEN num
    ELSE COALESCE(CAST(whole - base AS DOUBLE PRECISION), num - CAST(base AS DOUBLE PRECISION))
  END AS num,
  source_rows,
  CAST(ROW_NUMBER() OVER (PARTITION BY attr ORDER BY value) - 1 AS INT) AS code
FROM based;
ANALYZE "pg_temp"."wk metrics domain's"
