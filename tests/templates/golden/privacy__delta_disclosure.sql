/* purpose: δ-disclosure verdict per group: |ln(p(v|G) / p(v))| < δ for every baseline value v (paper: a value absent from G fails; with arx: log2 and the values present in G only) */
/* params: delta */
/* returns: creates target(gid, size, ok, severity, num, den); severity = the group's largest |log ratio| (worst SA; infinity where a value is absent, or the group has no known value), num/den NULL (a logarithm is no fraction) */
/* ref: Brickell & Shmatikov 2008 Def. 4 (δ-disclosure privacy, strict <); the reference tool's variant (arx): log2, values absent from G ignored; p(v) = the baseline (whole input) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_dist verdict" AS
WITH tot AS (
  SELECT
    s,
    CAST(SUM(n) AS INT128) AS bt,
    CAST(COUNT(*) AS INT128) AS bm
  FROM "temp"."main"."tpl it's_baseline it's"
  GROUP BY
    s
), cells AS (
  SELECT
    hs.gid,
    hs.s,
    hs.unknown,
    CAST(hs.n AS INT128) AS n,
    CAST(CASE WHEN hs.unknown THEN 0 ELSE COALESCE(b.n, 0) END AS INT128) AS bn,
    b.r,
    CAST(SUM(CASE WHEN hs.unknown THEN 0 ELSE hs.n END) OVER (PARTITION BY hs.gid, hs.s) AS INT128) AS m,
    t.bt,
    t.bm
  FROM "temp"."main"."tpl it's_hist" AS hs
  JOIN tot AS t
    ON t.s = hs.s
  LEFT JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
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
        THEN CAST('infinity' AS DOUBLE)
        ELSE ABS(LN(CAST(n * bt AS DOUBLE) / CAST(bn * m AS DOUBLE)))
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
      THEN CAST('infinity' AS DOUBLE)
      WHEN present < bm
      THEN CAST('infinity' AS DOUBLE)
      ELSE worst
    END AS sev
  FROM e
), d AS (
  SELECT
    gid,
    s,
    size,
    sev < $delta AS ok,
    sev AS severity,
    CAST(NULL AS INT128) AS num,
    CAST(NULL AS INT128) AS den
  FROM w
)
SELECT
  gid,
  CAST(MAX(size) AS BIGINT) AS size,
  BOOL_AND(CAST(ok AS BOOLEAN)) AS ok,
  MAX(severity) AS severity,
  ARG_MAX(num, severity) AS num,
  ARG_MAX(den, severity) AS den
FROM d
GROUP BY
  gid
