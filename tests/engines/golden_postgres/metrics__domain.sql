DROP TABLE IF EXISTS "pg_temp"."wk metrics domain's";
/* purpose: the domain of every QI attribute — the hierarchy's leaves where one is stored, else the distinct source values — with the number of source rows holding each value */
/* params: none */
/* returns: creates target(attr, value, num, source_rows, code); value is the text form (CAST AS VARCHAR), num its number on numeric attributes, code the value's 0-based number in text order per attribute (KL's integer coding) */
/* ref: SPEC §0.7 (|A| = leaf count; "domain sizes for * come from the schema"); datasets README (ARX: domain size = hierarchy rows) */
CREATE TABLE "pg_temp"."wk metrics domain's" AS
WITH src AS (
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
  FROM "pg_temp"."wk metrics attrs's" AS a
  JOIN ldiv.hierarchy_node AS n
    ON n.hierarchy_id = a.hierarchy_id AND n.height = 0
)
SELECT
  COALESCE(l.attr, s.attr) AS attr,
  COALESCE(l.value, s.value) AS value,
  COALESCE(s.num, l.num) AS num,
  COALESCE(s.source_rows, 0) AS source_rows,
  CAST(ROW_NUMBER() OVER (PARTITION BY COALESCE(l.attr, s.attr) ORDER BY COALESCE(l.value, s.value)) - 1 AS INT) AS code
FROM leaf AS l
FULL JOIN src AS s
  ON s.attr = l.attr AND s.value = l.value;
ANALYZE "pg_temp"."wk metrics domain's"
