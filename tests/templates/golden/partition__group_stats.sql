/* purpose: per group and SA: size, distinct values, pillar height and pillar count, entropy, counts in descending order */
/* params: none */
/* returns: creates target(gid, s, size, n_values, h, pillars, known, entropy, counts); rows with an unknown (NULL) SA count in size only */
/* ref: SPEC §0.1 (h, pillars), §0.2 (entropy with natural log), BSGI/TP pillar height */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk stats's" AS
WITH w AS (
  SELECT
    gid,
    s,
    v,
    n,
    MAX(n) FILTER(WHERE
      NOT v IS NULL) OVER (PARTITION BY gid, s) AS hmax
  FROM "temp"."main"."tpl it's_hist"
)
SELECT
  gid,
  s,
  CAST(SUM(n) AS BIGINT) AS size,
  COUNT(v) AS n_values,
  CAST(COALESCE(MAX(hmax), 0) AS BIGINT) AS h,
  COUNT(v) FILTER(WHERE
    n = hmax) AS pillars,
  CAST(COALESCE(SUM(n) FILTER(WHERE
    NOT v IS NULL), 0) AS BIGINT) AS known,
  CASE
    WHEN COUNT(v) = 0
    THEN NULL
    ELSE LN(SUM(n) FILTER(WHERE
      NOT v IS NULL)) - SUM(n * LN(n)) FILTER(WHERE
      NOT v IS NULL) / SUM(n) FILTER(WHERE
      NOT v IS NULL)
  END AS entropy,
  COALESCE(ARRAY_AGG(n ORDER BY n DESC) FILTER(WHERE
    NOT v IS NULL), []) AS counts
FROM w
GROUP BY
  gid,
  s
