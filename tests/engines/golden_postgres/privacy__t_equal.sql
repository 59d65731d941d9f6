DROP TABLE IF EXISTS "pg_temp"."tpl it's_dist verdict";
/* purpose: t-closeness verdict per group, equal ground distance: EMD = ½·Σ_v |p(v|G) − p(v)| ≤ t = t_num/t_den, exactly as t_den·Σ_v |n_v·N − N_v·m| ≤ t_num·2·m·N */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value fails (infinite severity) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.2 (equal distance: the variational distance); p(v) = the baseline (whole input); values absent from G add N_v·m each, summed as m·(N − Σ present N_v). A group of one known value v (most groups of a large table) has distance 1 − N_v/N = 2·m·(N − N_v) / (2·m·N), read from its one histogram row without grouping; only the groups of several values are grouped. m = the statistics' known rows */
CREATE TABLE "pg_temp"."tpl it's_dist verdict" AS
WITH tot AS (
  SELECT
    s,
    CAST(SUM(n) AS DECIMAL) AS bt
  FROM "pg_temp"."tpl it's_baseline it's"
  GROUP BY
    s
), cells AS (
  SELECT
    hs.gid,
    hs.s,
    g.size,
    g.n_values,
    CAST(g.known AS DECIMAL) AS m,
    t.bt,
    CAST(hs.n AS DECIMAL) AS n,
    CAST(COALESCE(b.n, 0) AS DECIMAL) AS bn
  FROM "pg_temp"."tpl it's_hist" AS hs
  JOIN "pg_temp"."tpl it's_stats" AS g
    ON g.gid = hs.gid AND g.s = hs.s
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
  WHERE
    NOT hs.unknown
), e AS (
  SELECT
    gid,
    s,
    size,
    m,
    bt,
    2 * m * (
      bt - bn
    ) AS num
  FROM cells
  WHERE
    n_values = 1
  UNION ALL
  SELECT
    gid,
    s,
    MAX(size),
    MAX(m),
    MAX(bt),
    SUM(ABS(n * bt - bn * m)) + MAX(m) * (
      MAX(bt) - SUM(bn)
    )
  FROM cells
  WHERE
    n_values > 1
  GROUP BY
    gid,
    s
  UNION ALL
  SELECT
    gid,
    s,
    size,
    0,
    1,
    NULL
  FROM "pg_temp"."tpl it's_stats"
  WHERE
    n_values = 0
), d AS (
  SELECT
    gid,
    s,
    size,
    m > 0
    AND num * (
      CAST(%(t_den)s AS BIGINT)
    ) <= (
      CAST(%(t_num)s AS BIGINT)
    ) * 2 * m * bt AS ok,
    CASE
      WHEN m = 0
      THEN CAST('infinity' AS DOUBLE PRECISION)
      ELSE CAST(num AS DOUBLE PRECISION) / CAST(2 * m * bt AS DOUBLE PRECISION)
    END AS severity,
    num,
    2 * m * bt AS den
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
