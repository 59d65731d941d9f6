/* purpose: the distinct source points of the KL computation as integer codes: per QI the value's number in the attribute's domain, per SA the value's rank among the source's SA values, and the point's row count */
/* params: none */
/* returns: rows (x1..xd, s1..sk, n); codes are 0-based, -1 for a QI value outside the domain (NULL) */
/* ref: SPEC §0.7 (KL: F(x) over A_1 x ... x A_d x S); value codes from metrics/domain.sql, SA codes from _macros/kl_sa_codes.sql */
WITH sdom1 AS (
  SELECT
    v,
    CAST(ROW_NUMBER() OVER (ORDER BY v) - 1 AS INT) AS code
  FROM (
    SELECT DISTINCT
      CAST("ünï" AS TEXT) AS v
    FROM "main"."select"
  ) AS d
), pts AS (
  SELECT
    CAST("it's" AS TEXT) AS x1,
    CAST("a""b" AS TEXT) AS x2,
    CAST("Zip Code" AS TEXT) AS x3,
    CAST("select" AS TEXT) AS x4,
    CAST("ünï" AS TEXT) AS s1,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY
    1,
    2,
    3,
    4,
    5
)
SELECT
  COALESCE(d1.code, -1) AS x1,
  COALESCE(d2.code, -1) AS x2,
  COALESCE(d3.code, -1) AS x3,
  COALESCE(d4.code, -1) AS x4,
  sd1.code AS s1,
  pts.n
FROM pts
LEFT JOIN "pg_temp"."wk metrics domain's" AS d1
  ON d1.attr = 1 AND d1.value = pts.x1
LEFT JOIN "pg_temp"."wk metrics domain's" AS d2
  ON d2.attr = 2 AND d2.value = pts.x2
LEFT JOIN "pg_temp"."wk metrics domain's" AS d3
  ON d3.attr = 3 AND d3.value = pts.x3
LEFT JOIN "pg_temp"."wk metrics domain's" AS d4
  ON d4.attr = 4 AND d4.value = pts.x4
JOIN sdom1 AS sd1
  ON (
    sd1.v IS NULL
  ) = (
    pts.s1 IS NULL
  )
  AND COALESCE(CAST(sd1.v AS TEXT), '') = COALESCE(CAST(pts.s1 AS TEXT), '')
