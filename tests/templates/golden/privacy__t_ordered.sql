/* purpose: t-closeness verdict per group, ordered ground distance |i − j|/(M − 1) over the ranks of the baseline's M values: EMD = Σ_i |Σ_{j≤i} (p_j(G) − p_j)| / (M − 1) ≤ t = t_num/t_den, exactly in integers */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.2 (ordered distance); every (group, baseline value) pair is one row (a value absent from G counts 0), so the cost grows with groups × M */
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
), grp AS (
  SELECT
    gid,
    s,
    SUM(n) AS size,
    MAX(m) AS m,
    MAX(bt) AS bt,
    GREATEST(MAX(bm) - 1, 1) AS span,
    BOOL_OR(CAST(NOT unknown AND bn = 0 AS BOOLEAN)) AS stray
  FROM cells
  GROUP BY
    gid,
    s
), grid AS (
  SELECT
    g.gid,
    g.s,
    b.r,
    CAST(COALESCE(hs.n, 0) AS INT128) * g.bt - CAST(b.n AS INT128) * g.m AS diff
  FROM grp AS g
  JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = g.s
  LEFT JOIN "temp"."main"."tpl it's_hist" AS hs
    ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown AND hs.v IS NOT DISTINCT FROM b.v
  WHERE
    g.m > 0
), run AS (
  SELECT
    gid,
    s,
    SUM(diff) OVER (PARTITION BY gid, s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum
  FROM grid
), e AS (
  SELECT
    gid,
    s,
    SUM(ABS(cum)) AS num
  FROM run
  GROUP BY
    gid,
    s
), d AS (
  SELECT
    g.gid,
    g.s,
    g.size,
    g.m > 0 AND NOT g.stray AND e.num * $t_den <= $t_num * g.span * g.m * g.bt AS ok,
    CASE
      WHEN g.m = 0 OR g.stray
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(e.num AS DOUBLE) / CAST(g.span * g.m * g.bt AS DOUBLE)
    END AS severity,
    e.num,
    g.span * g.m * g.bt AS den
  FROM grp AS g
  LEFT JOIN e
    ON e.gid = g.gid AND e.s = g.s
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
