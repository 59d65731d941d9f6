/* purpose: t-closeness verdict per group, equal ground distance: EMD = ½·Σ_v |p(v|G) − p(v)| ≤ t = t_num/t_den, exactly as t_den·Σ_v |n_v·N − N_v·m| ≤ t_num·2·m·N */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE */
/* ref: Li, Li, Venkatasubramanian 2007 §4.2 (equal distance: the variational distance); p(v) = the baseline (whole input); values absent from G add N_v·m each, summed as m·(N − Σ present N_v) */
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
    SUM(ABS(n * bt - bn * m)) + MAX(m) * (
      MAX(bt) - SUM(bn)
    ) AS num,
    2 * MAX(m) * MAX(bt) AS den
  FROM cells
  GROUP BY
    gid,
    s
), d AS (
  SELECT
    gid,
    s,
    num * $t_den <= $t_num * den AS ok,
    CAST(num AS DOUBLE) / CAST(den AS DOUBLE) AS severity,
    num,
    den
  FROM e
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
