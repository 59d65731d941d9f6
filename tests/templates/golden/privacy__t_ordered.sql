/* purpose: t-closeness verdict per group, ordered ground distance |i − j|/(M − 1) over the ranks of the baseline's M values: EMD = Σ_i |Σ_{j≤i} (p_j(G) − p_j)| / (M − 1) ≤ t = t_num/t_den, exactly in integers */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE */
/* ref: Li, Li, Venkatasubramanian 2007 §4.2 (ordered distance); every (group, baseline value) pair is one row (a value absent from G counts 0), so the cost grows with groups × M; a group holding a value the baseline lacks fails */
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
), grid AS (
  SELECT
    g.gid,
    g.s,
    b.r,
    CAST(COALESCE(hs.n, 0) AS INT128) * t.bt - CAST(b.n AS INT128) * CAST(g.known AS INT128) AS diff
  FROM "temp"."main"."tpl it's_stats" AS g
  JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = g.s
  JOIN tot AS t
    ON t.s = g.s
  LEFT JOIN "temp"."main"."tpl it's_hist" AS hs
    ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown AND hs.v IS NOT DISTINCT FROM b.v
  WHERE
    g.known > 0
), run AS (
  SELECT
    gid,
    s,
    SUM(diff) OVER (PARTITION BY gid, s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum
  FROM grid
), e AS (
  SELECT
    r.gid,
    r.s,
    SUM(ABS(r.cum)) AS num
  FROM run AS r
  GROUP BY
    r.gid,
    r.s
), f AS (
  SELECT
    gid,
    s,
    MAX(m) AS m,
    MAX(bt) AS bt,
    MAX(bm) AS bm,
    BOOL_OR(CAST(bn = 0 AS BOOLEAN)) AS stray
  FROM cells
  GROUP BY
    gid,
    s
), d AS (
  SELECT
    e.gid,
    e.s,
    NOT f.stray AND e.num * $t_den <= $t_num * GREATEST(f.bm - 1, 1) * f.m * f.bt AS ok,
    CASE
      WHEN f.stray
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(e.num AS DOUBLE) / CAST(GREATEST(f.bm - 1, 1) * f.m * f.bt AS DOUBLE)
    END AS severity,
    e.num,
    GREATEST(f.bm - 1, 1) * f.m * f.bt AS den
  FROM e
  JOIN f
    ON f.gid = e.gid AND f.s = e.s
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
