/* purpose: the distinct release patterns of the KL computation as integer codes: per QI the label's number among the attribute's labels, per SA the published value's rank among the source's SA values (-1 for an unknown SA, -2 for a value the source lacks), and the pattern's row count; with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each */
/* params: none */
/* returns: rows (l1..ld, t1..tk, c); label codes from metrics/labels.sql, SA codes from _macros/kl_sa_codes.sql */
/* ref: SPEC §0.7 (KL: every published row spreads 1/|T*| over its region); a NULL ("unknown") SA covers every SA value of the source */
WITH sdom1 AS (
  SELECT
    v,
    CAST(ROW_NUMBER() OVER (ORDER BY v) - 1 AS INT) AS code
  FROM (
    SELECT DISTINCT
      CAST("ünï" AS TEXT) AS v
    FROM "main"."select"
  ) AS d
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
  k1.code AS l1,
  k2.code AS l2,
  k3.code AS l3,
  k4.code AS l4,
  CASE WHEN pat.t1 IS NULL THEN -1 ELSE COALESCE(sd1.code, -2) END AS t1,
  pat.c
FROM pat
JOIN "pg_temp"."wk metrics labels's" AS k1
  ON k1.attr = 1 AND k1.label = pat.l1
JOIN "pg_temp"."wk metrics labels's" AS k2
  ON k2.attr = 2 AND k2.label = pat.l2
JOIN "pg_temp"."wk metrics labels's" AS k3
  ON k3.attr = 3 AND k3.label = pat.l3
JOIN "pg_temp"."wk metrics labels's" AS k4
  ON k4.attr = 4 AND k4.label = pat.l4
LEFT JOIN sdom1 AS sd1
  ON sd1.v = pat.t1
