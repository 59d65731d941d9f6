/* purpose: t-closeness verdict per group, ordered ground distance |i − j|/(M − 1) over the ranks of the baseline's M values: EMD = Σ_i |Σ_{j≤i} (p_j(G) − p_j)| / (M − 1) ≤ t = t_num/t_den, exactly in integers */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.2 (ordered distance); a group of one value v moves all its mass from v: m·pt(v) with pt(v) = Σ_u N_u·|r_v − r_u| (the baseline table's); a group of several values is one row per (group, baseline value) (a value absent from it counts 0), so that part grows with those groups × M */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."tpl it's_dist verdict" AS
WITH tot AS (
  SELECT
    s,
    CAST(SUM(n) AS INT128) AS bt,
    CAST(COUNT(*) AS INT128) AS bm
  FROM "temp"."main"."tpl it's_baseline it's"
  GROUP BY
    s
), grp AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    g.n_values,
    CAST(g.known AS INT128) AS m,
    t.bt,
    t.bm
  FROM "temp"."main"."tpl it's_stats" AS g
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
  JOIN "temp"."main"."tpl it's_hist" AS hs
    ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown
  LEFT JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
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
    CAST(COALESCE(hs.n, 0) AS INT128) * g.bt - CAST(b.n AS INT128) * g.m AS diff
  FROM multi AS g
  JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = g.s
  LEFT JOIN "temp"."main"."tpl it's_hist" AS hs
    ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown AND hs.v IS NOT DISTINCT FROM b.v
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
    m > 0 AND NOT stray AND num * $t_den <= $t_num * GREATEST(bm - 1, 1) * m * bt AS ok,
    CASE
      WHEN m = 0 OR stray
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(num AS DOUBLE) / CAST(GREATEST(bm - 1, 1) * m * bt AS DOUBLE)
    END AS severity,
    num,
    GREATEST(bm - 1, 1) * m * bt AS den
  FROM e
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
