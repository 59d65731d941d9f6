DROP TABLE IF EXISTS "pg_temp"."tpl it's_dist verdict";
/* purpose: δ-disclosure verdict per group: |ln(p(v|G) / p(v))| < δ for every baseline value v (paper: a value absent from G fails; with arx: log2 and the values present in G only) */
/* params: delta */
/* returns: creates target(gid, size, ok, severity, num, den); severity = the group's largest |log ratio| (worst SA; infinity where a value is absent, or the group has no known value), num/den NULL (a logarithm is no fraction) */
/* ref: Brickell & Shmatikov 2008 Def. 4 (δ-disclosure privacy, strict <); the reference tool's variant (arx): log2, values absent from G ignored; p(v) = the baseline (whole input) */
CREATE TABLE "pg_temp"."tpl it's_dist verdict" AS
WITH tot AS (
  SELECT
    s,
    CAST(SUM(n) AS DECIMAL) AS bt,
    CAST(COUNT(*) AS DECIMAL) AS bm
  FROM "pg_temp"."tpl it's_baseline it's"
  GROUP BY
    s
), cells AS (
  SELECT
    hs.gid,
    hs.s,
    hs.unknown,
    CAST(hs.n AS DECIMAL) AS n,
    CAST(CASE WHEN hs.unknown THEN 0 ELSE COALESCE(b.n, 0) END AS DECIMAL) AS bn,
    b.r,
    CAST(SUM(CASE WHEN hs.unknown THEN 0 ELSE hs.n END) OVER (PARTITION BY hs.gid, hs.s) AS DECIMAL) AS m,
    t.bt,
    t.bm
  FROM "pg_temp"."tpl it's_hist" AS hs
  JOIN tot AS t
    ON t.s = hs.s
  LEFT JOIN "pg_temp"."tpl it's_baseline it's" AS b
    ON b.s = hs.s
    AND (
      b.v IS NULL
    ) = (
      hs.v IS NULL
    )
    AND COALESCE(CAST(b.v AS TEXT), '') = COALESCE(CAST(hs.v AS TEXT), '')
), e AS (
  SELECT
    gid,
    s,
    SUM(n) AS size,
    MAX(m) AS m,
    MAX(
      CASE
        WHEN unknown
        THEN 0.0
        WHEN bn = 0
        THEN CAST('infinity' AS DOUBLE PRECISION)
        ELSE ABS(LN(CAST(n * bt AS DOUBLE PRECISION) / CAST(bn * m AS DOUBLE PRECISION)))
      END
    ) AS worst,
    COUNT(*) FILTER(WHERE
      NOT unknown AND bn > 0) AS present,
    MAX(bm) AS bm
  FROM cells
  GROUP BY
    gid,
    s
), w AS (
  SELECT
    gid,
    s,
    size,
    CASE
      WHEN m = 0
      THEN CAST('infinity' AS DOUBLE PRECISION)
      WHEN present < bm
      THEN CAST('infinity' AS DOUBLE PRECISION)
      ELSE worst
    END AS sev
  FROM e
), d AS (
  SELECT
    gid,
    s,
    size,
    sev < (
      CAST(%(delta)s AS DOUBLE PRECISION)
    ) AS ok,
    sev AS severity,
    CAST(NULL AS DECIMAL) AS num,
    CAST(NULL AS DECIMAL) AS den
  FROM w
)
SELECT
  gid,
  CAST(MAX(size) AS BIGINT) AS size,
  BOOL_AND(ok) AS ok,
  MAX(severity) AS severity,
  (
    ARRAY_AGG(num ORDER BY severity DESC) FILTER(WHERE
      num IS NOT NULL AND severity IS NOT NULL)
  )[1] AS num,
  (
    ARRAY_AGG(den ORDER BY severity DESC) FILTER(WHERE
      den IS NOT NULL AND severity IS NOT NULL)
  )[1] AS den
FROM d
GROUP BY
  gid;
ANALYZE "pg_temp"."tpl it's_dist verdict"
