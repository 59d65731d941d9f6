/* purpose: β-likeness verdict per group: for every value v with p(v|G) > p(v), the relative gain (p(v|G) − p(v))/p(v) ≤ β = b_num/b_den exactly (enhanced: also ≤ −ln p(v), in floating point) */
/* params: b_num, b_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's largest relative gain (worst SA; 0 when no value gains), severity = that as DOUBLE */
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
), g AS (
  SELECT
    gid,
    s,
    bn,
    bt,
    n * bt - bn * m AS up,
    bn * m AS base
  FROM cells
), d AS (
  SELECT
    gid,
    s,
    BOOL_AND(
      CAST(bn > 0
      AND (
        up <= 0
        OR (
          up * $b_den <= $b_num * base
          AND CAST(up AS DOUBLE) / CAST(base AS DOUBLE) <= -LN(CAST(bn AS DOUBLE) / CAST(bt AS DOUBLE))
        )
      ) AS BOOLEAN)
    ) AS ok,
    MAX(
      CASE
        WHEN bn = 0
        THEN CAST('infinity' AS DOUBLE)
        ELSE GREATEST(0.0, CAST(up AS DOUBLE) / CAST(base AS DOUBLE))
      END
    ) AS severity,
    ARG_MAX(
      CASE WHEN up > 0 THEN up ELSE 0 END,
      CASE
        WHEN bn = 0
        THEN CAST('infinity' AS DOUBLE)
        ELSE CAST(up AS DOUBLE) / CAST(base AS DOUBLE)
      END
    ) AS num,
    ARG_MAX(
      CASE WHEN up > 0 THEN base ELSE 1 END,
      CASE
        WHEN bn = 0
        THEN CAST('infinity' AS DOUBLE)
        ELSE CAST(up AS DOUBLE) / CAST(base AS DOUBLE)
      END
    ) AS den
  FROM g
  GROUP BY
    gid,
    s
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
