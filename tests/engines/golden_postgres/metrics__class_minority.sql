/* purpose: the rows of a release outside their class's majority value of the class column (CM of the published rows); a class is a group of rows with equal keys (ldiv_db/core/classes.py's class_keys); with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each */
/* params: none */
/* returns: cm_published */
/* ref: SPEC §0.7 (CM), §5.4; DESIGN §6 (the class is the finest partition the published table reveals); ties in the majority do not matter, only the top count is used */
WITH per_value AS (
  SELECT
    "group",
    "it's",
    "a""b",
    "Zip Code",
    "select",
    "order" AS k,
    COUNT(*) AS n
  FROM "main"."rel'ease ""x"""
  GROUP BY
    1,
    2,
    3,
    4,
    5,
    6
), per_class AS (
  SELECT
    SUM(n) AS size,
    MAX(n) AS top
  FROM per_value
  GROUP BY
    "group",
    "it's",
    "a""b",
    "Zip Code",
    "select"
)
SELECT
  CAST(COALESCE(SUM(size - top), 0) AS DECIMAL) AS cm_published
FROM per_class
