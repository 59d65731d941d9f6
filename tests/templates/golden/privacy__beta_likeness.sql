/* purpose: β-likeness verdict per group: for every value v with p(v|G) > p(v), the relative gain (p(v|G) − p(v))/p(v) ≤ β = b_num/b_den exactly (enhanced: also ≤ −ln p(v), in floating point) */
/* params: b_num, b_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's largest relative gain (worst SA; 0 when no value gains), severity = that as DOUBLE; a group without a known value fails */
/* ref: Cao & Karras 2012 Def. 2 (basic β-likeness) and Def. 3 (enhanced: threshold min(β, −ln p(v))); gain = (n·N − N_v·m)/(N_v·m); p(v) = the baseline (whole input); a value the baseline lacks is an infinite gain */
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
), g AS (
  SELECT
    gid,
    s,
    unknown,
    n,
    bn,
    bt,
    m,
    n * bt - bn * m AS up,
    bn * m AS base,
    CASE
      WHEN unknown
      THEN 0.0
      WHEN bn = 0
      THEN CAST('infinity' AS DOUBLE)
      ELSE GREATEST(0.0, CAST(n * bt - bn * m AS DOUBLE) / CAST(bn * m AS DOUBLE))
    END AS gain
  FROM cells
), d AS (
  SELECT
    gid,
    s,
    SUM(n) AS size,
    MAX(m) > 0
    AND BOOL_AND(
      CAST(unknown
      OR (
        bn > 0
        AND (
          up <= 0
          OR (
            up * $b_den <= $b_num * base
            AND gain <= -LN(CAST(bn AS DOUBLE) / CAST(bt AS DOUBLE))
          )
        )
      ) AS BOOLEAN)
    ) AS ok,
    CASE WHEN MAX(m) = 0 THEN CAST('infinity' AS DOUBLE) ELSE MAX(gain) END AS severity,
    ARG_MAX(CASE WHEN unknown OR up <= 0 THEN 0 ELSE up END, gain) AS num,
    ARG_MAX(CASE WHEN unknown OR up <= 0 THEN 1 ELSE base END, gain) AS den
  FROM g
  GROUP BY
    gid,
    s
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
