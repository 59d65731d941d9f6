DROP TABLE IF EXISTS "pg_temp"."tpl it's_dist verdict";
/* purpose: β-likeness verdict per group: for every value v with p(v|G) > p(v), the relative gain (p(v|G) − p(v))/p(v) ≤ β = b_num/b_den exactly (enhanced: also ≤ −ln p(v), in floating point) */
/* params: b_num, b_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's largest relative gain (worst SA; 0 when no value gains), severity = that as DOUBLE; a group without a known value fails */
/* ref: Cao & Karras 2012 Def. 2 (basic β-likeness) and Def. 3 (enhanced: threshold min(β, −ln p(v))); gain = (n·N − N_v·m)/(N_v·m); p(v) = the baseline (whole input); a value the baseline lacks is an infinite gain */
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
      THEN CAST('infinity' AS DOUBLE PRECISION)
      ELSE GREATEST(0.0, CAST(n * bt - bn * m AS DOUBLE PRECISION) / CAST(bn * m AS DOUBLE PRECISION))
    END AS gain
  FROM cells
), d AS (
  SELECT
    gid,
    s,
    SUM(n) AS size,
    MAX(m) > 0
    AND BOOL_AND(
      unknown
      OR (
        bn > 0
        AND (
          up <= 0
          OR (
            up * (
              CAST(%(b_den)s AS BIGINT)
            ) <= (
              CAST(%(b_num)s AS BIGINT)
            ) * base
            AND gain <= -LN(CAST(bn AS DOUBLE PRECISION) / CAST(bt AS DOUBLE PRECISION))
          )
        )
      )
    ) AS ok,
    CASE WHEN MAX(m) = 0 THEN CAST('infinity' AS DOUBLE PRECISION) ELSE MAX(gain) END AS severity,
    (
      ARRAY_AGG((
        CASE WHEN unknown OR up <= 0 THEN 0 ELSE up END
      ) ORDER BY gain DESC) FILTER(WHERE
        (
          CASE WHEN unknown OR up <= 0 THEN 0 ELSE up END
        ) IS NOT NULL
        AND gain IS NOT NULL)
    )[1] AS num,
    (
      ARRAY_AGG((
        CASE WHEN unknown OR up <= 0 THEN 1 ELSE base END
      ) ORDER BY gain DESC) FILTER(WHERE
        (
          CASE WHEN unknown OR up <= 0 THEN 1 ELSE base END
        ) IS NOT NULL
        AND gain IS NOT NULL)
    )[1] AS den
  FROM g
  GROUP BY
    gid,
    s
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
