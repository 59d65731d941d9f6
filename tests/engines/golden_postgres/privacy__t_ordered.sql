DROP TABLE IF EXISTS "pg_temp"."tpl it's_dist verdict";
/* purpose: t-closeness verdict per group, ordered ground distance |i − j|/(M − 1) over the ranks of the baseline's M values: EMD = Σ_i |Σ_{j≤i} (p_j(G) − p_j)| / (M − 1) ≤ t = t_num/t_den, exactly in integers */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.2 (ordered distance); a group of one value v moves all its mass from v: m·pt(v) with pt(v) = Σ_u N_u·|r_v − r_u| (the baseline table's); a group of several values is one row per (group, baseline value) (a value absent from it counts 0), so that part grows with those groups × M */
CREATE TABLE "pg_temp"."tpl it's_dist verdict" AS
WITH tot AS (
  SELECT
    s,
    CAST(SUM(n) AS DECIMAL) AS bt,
    CAST(COUNT(*) AS DECIMAL) AS bm
  FROM "pg_temp"."tpl it's_baseline it's"
  GROUP BY
    s
), grp AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    g.n_values,
    CAST(g.known AS DECIMAL) AS m,
    t.bt,
    t.bm
  FROM "pg_temp"."tpl it's_stats" AS g
  JOIN tot AS t
    ON t.s = g.s
), single AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    g.m,
    g.bt,
    g.bm,
    g.m * COALESCE(b.pt, 0) AS num,
    b.s IS NULL AS stray
  FROM grp AS g
  JOIN "pg_temp"."tpl it's_hist" AS hs
    ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown
  LEFT JOIN "pg_temp"."tpl it's_baseline it's" AS b
    ON b.s = hs.s
    AND (
      b.v IS NULL
    ) = (
      hs.v IS NULL
    )
    AND COALESCE(CAST(b.v AS TEXT), '') = COALESCE(CAST(hs.v AS TEXT), '')
  WHERE
    g.n_values = 1
), multi AS (
  SELECT
    *
  FROM grp
  WHERE
    n_values > 1
), grid AS (
  SELECT
    g.gid,
    g.s,
    b.r,
    NOT hs.n IS NULL AS held,
    CAST(COALESCE(hs.n, 0) AS DECIMAL) * g.bt - CAST(b.n AS DECIMAL) * g.m AS diff
  FROM multi AS g
  JOIN "pg_temp"."tpl it's_baseline it's" AS b
    ON b.s = g.s
  LEFT JOIN "pg_temp"."tpl it's_hist" AS hs
    ON hs.gid = g.gid
    AND hs.s = g.s
    AND NOT hs.unknown
    AND (
      hs.v IS NULL
    ) = (
      b.v IS NULL
    )
    AND COALESCE(CAST(hs.v AS TEXT), '') = COALESCE(CAST(b.v AS TEXT), '')
), run AS (
  SELECT
    gid,
    s,
    held,
    SUM(diff) OVER (PARTITION BY gid, s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum
  FROM grid
), e AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    g.m,
    g.bt,
    g.bm,
    x.num,
    x.held < g.n_values AS stray
  FROM multi AS g
  JOIN (
    SELECT
      gid,
      s,
      SUM(ABS(cum)) AS num,
      COUNT(*) FILTER(WHERE
        held) AS held
    FROM run
    GROUP BY
      gid,
      s
  ) AS x
    ON x.gid = g.gid AND x.s = g.s
  UNION ALL
  SELECT
    gid,
    s,
    size,
    m,
    bt,
    bm,
    num,
    stray
  FROM single
  UNION ALL
  SELECT
    gid,
    s,
    size,
    m,
    bt,
    bm,
    NULL,
    FALSE
  FROM grp
  WHERE
    n_values = 0
), d AS (
  SELECT
    gid,
    s,
    size,
    m > 0
    AND NOT stray
    AND num * (
      CAST(%(t_den)s AS BIGINT)
    ) <= (
      CAST(%(t_num)s AS BIGINT)
    ) * GREATEST(bm - 1, 1) * m * bt AS ok,
    CASE
      WHEN m = 0 OR stray
      THEN CAST('infinity' AS DOUBLE PRECISION)
      ELSE CAST(num AS DOUBLE PRECISION) / CAST(GREATEST(bm - 1, 1) * m * bt AS DOUBLE PRECISION)
    END AS severity,
    num,
    GREATEST(bm - 1, 1) * m * bt AS den
  FROM e
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
