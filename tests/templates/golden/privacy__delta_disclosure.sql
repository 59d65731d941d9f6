/* purpose: δ-disclosure verdict per group: |ln(p(v|G) / p(v))| < δ for every baseline value v (paper: a value absent from G fails; with arx: log2 and the values present in G only) */
/* params: delta */
/* returns: creates target(gid, size, ok, severity, num, den); severity = the group's largest |log ratio| (worst SA; infinity where a value is absent), num/den NULL (a logarithm is no fraction) */
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
    CAST(hs.n AS INT128) AS n,
    CAST(COALESCE(b.n, 0) AS INT128) AS bn,
    b.r,
    CAST(g.known AS INT128) AS m,
    t.bt,
    t.bm
  FROM "temp"."main"."tpl it's_hist" AS hs
  JOIN "temp"."main"."tpl it's_stats" AS g
    ON g.gid = hs.gid AND g.s = hs.s
  JOIN tot AS t
    ON t.s = hs.s
  LEFT JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
  WHERE
    NOT hs.unknown
), e AS (
  SELECT
    gid,
    s,
    MAX(
      CASE
        WHEN bn = 0
        THEN CAST('infinity' AS DOUBLE)
        ELSE ABS(LN(CAST(n * bt AS DOUBLE)) - LN(CAST(bn * m AS DOUBLE)))
      END
    ) AS worst,
    COUNT(*) FILTER(WHERE
      bn > 0) AS present,
    MAX(bm) AS bm
  FROM cells
  GROUP BY
    gid,
    s
), d AS (
  SELECT
    gid,
    s,
    sev < $delta AS ok,
    sev AS severity,
    CAST(NULL AS INT128) AS num,
    CAST(NULL AS INT128) AS den
  FROM (
    SELECT
      gid,
      s,
      CASE WHEN present < bm THEN CAST('infinity' AS DOUBLE) ELSE worst END AS sev
    FROM e
  ) AS w
)
SELECT
  g.gid,
  CAST(MAX(g.size) AS BIGINT) AS size,
  BOOL_AND(CAST(COALESCE(d.ok, FALSE) AS BOOLEAN)) AS ok,
  MAX(COALESCE(d.severity, CAST('infinity' AS DOUBLE))) AS severity,
  ARG_MAX(d.num, COALESCE(d.severity, CAST('infinity' AS DOUBLE))) AS num,
  ARG_MAX(d.den, COALESCE(d.severity, CAST('infinity' AS DOUBLE))) AS den
FROM "temp"."main"."tpl it's_stats" AS g
LEFT JOIN d
  ON d.gid = g.gid AND d.s = g.s
GROUP BY
  g.gid
