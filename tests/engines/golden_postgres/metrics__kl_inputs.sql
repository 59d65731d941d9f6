/* purpose: the source points and the release patterns of the KL computation in one statement, as integer codes: part 1 = the distinct source points (per QI the value's number in the attribute's domain, per SA the value's rank among the source's SA values, and the point's row count); part 2 = the distinct release patterns (per QI the label's number among the attribute's labels, per SA the published value's rank among the source's SA values, -1 for an unknown SA, -2 for a value the source lacks, and the pattern's row count); with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each; with parts = 'points' or 'patterns' only that part (the points can then be read on a second connection while this one writes the release) */
/* params: none */
/* returns: rows (part, c1..cd, c{d+1}..c{d+k}, n): part 1 rows are points (x1..xd, s1..sk, n), part 2 rows are patterns (l1..ld, t1..tk, c); codes are 0-based, -1 for a QI value outside the domain (NULL); value codes from metrics/domain.sql, label codes from metrics/labels.sql, SA codes shared by both parts */
/* ref: SPEC §0.7 (KL: F(x) over A_1 x ... x A_d x S; every published row spreads 1/|T*| over its region); a NULL ("unknown") SA covers every SA value of the source */
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
), pat AS (
  SELECT
    CAST("it's" AS TEXT) AS l1,
    CAST("a""b" AS TEXT) AS l2,
    CAST("Zip Code" AS TEXT) AS l3,
    CAST("select" AS TEXT) AS l4,
    CAST("ünï" AS TEXT) AS t1,
    COUNT(*) AS c
  FROM "main"."rel'ease ""x"""
  GROUP BY
    1,
    2,
    3,
    4,
    5
)
SELECT
  1 AS part,
  COALESCE(d1.code, -1) AS c1,
  COALESCE(d2.code, -1) AS c2,
  COALESCE(d3.code, -1) AS c3,
  COALESCE(d4.code, -1) AS c4,
  sd1.code AS c5,
  CAST(pts.n AS BIGINT) AS n
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
UNION ALL
SELECT
  2 AS part,
  k1.code AS c1,
  k2.code AS c2,
  k3.code AS c3,
  k4.code AS c4,
  CASE WHEN pat.t1 IS NULL THEN -1 ELSE COALESCE(sp1.code, -2) END AS c5,
  CAST(pat.c AS BIGINT) AS n
FROM pat
JOIN "pg_temp"."wk metrics labels's" AS k1
  ON k1.attr = 1 AND k1.label = pat.l1
JOIN "pg_temp"."wk metrics labels's" AS k2
  ON k2.attr = 2 AND k2.label = pat.l2
JOIN "pg_temp"."wk metrics labels's" AS k3
  ON k3.attr = 3 AND k3.label = pat.l3
JOIN "pg_temp"."wk metrics labels's" AS k4
  ON k4.attr = 4 AND k4.label = pat.l4
LEFT JOIN sdom1 AS sp1
  ON sp1.v = pat.t1
