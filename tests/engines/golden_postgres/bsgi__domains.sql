/* purpose: the domain of every BSGI code with its row count: attribute 0 = the primary SA's buckets, attribute i = QI i (value = the numeric value of a numeric QI's code, else NULL) */
/* params: none */
/* returns: attr, code, value, n — ordered by attr, code; a NULL code of a hierarchy QI counts rows whose value is not a leaf of its hierarchy */
/* ref: SPEC §2.1 (bucket sizes n_i), §0.7 (the source range max_T − min_T of a numeric QI) */
SELECT
  0 AS attr,
  b AS code,
  CAST(NULL AS DOUBLE PRECISION) AS value,
  COUNT(*) AS n
FROM "pg_temp"."wk bsgi codes's"
GROUP BY
  b
UNION ALL
SELECT
  1 AS attr,
  "q1" AS code,
  CAST(NULL AS DOUBLE PRECISION) AS value,
  COUNT(*) AS n
FROM "pg_temp"."wk bsgi codes's"
GROUP BY
  "q1"
UNION ALL
SELECT
  2 AS attr,
  "q2" AS code,
  (
    ARRAY_AGG("v2") FILTER(WHERE
      "v2" IS NOT NULL)
  )[1] AS value,
  COUNT(*) AS n
FROM "pg_temp"."wk bsgi codes's"
GROUP BY
  "q2"
UNION ALL
SELECT
  3 AS attr,
  "q3" AS code,
  CAST(NULL AS DOUBLE PRECISION) AS value,
  COUNT(*) AS n
FROM "pg_temp"."wk bsgi codes's"
GROUP BY
  "q3"
UNION ALL
SELECT
  4 AS attr,
  "q4" AS code,
  CAST(NULL AS DOUBLE PRECISION) AS value,
  COUNT(*) AS n
FROM "pg_temp"."wk bsgi codes's"
GROUP BY
  "q4"
ORDER BY
  attr,
  code
