/* purpose: t-closeness verdict per group, hierarchical ground distance level(LCA)/H over the SA's hierarchy: EMD = Σ_nodes (h/H)·min(positive extra, negative extra of the node's children) ≤ t = t_num/t_den, exactly in integers */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE */
/* ref: Li, Li, Venkatasubramanian 2007 §4.3 (hierarchical distance, extra(N) = Σ_leaves below N (p_i(G) − p_i)); tree: (s, v, h, node) per leaf and level; a node is (level, label); every (group, leaf) pair is one row; a group holding a value the baseline lacks fails */
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
    b.v,
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
), extra AS (
  SELECT
    grid.gid,
    grid.s,
    tr.h,
    tr.node,
    SUM(grid.diff) AS x
  FROM grid
  JOIN "temp"."main"."tpl it's_tree it's" AS tr
    ON tr.s = grid.s AND tr.v IS NOT DISTINCT FROM grid.v
  GROUP BY
    grid.gid,
    grid.s,
    tr.h,
    tr.node
), edge AS (
  SELECT DISTINCT
    a.s,
    p.h,
    a.node AS child,
    p.node AS parent
  FROM "temp"."main"."tpl it's_tree it's" AS a
  JOIN "temp"."main"."tpl it's_tree it's" AS p
    ON p.s = a.s AND p.v IS NOT DISTINCT FROM a.v AND p.h = a.h + 1
), cost AS (
  SELECT
    x.gid,
    x.s,
    ed.h * LEAST(SUM(GREATEST(x.x, 0)), SUM(GREATEST(-x.x, 0))) AS c
  FROM extra AS x
  JOIN edge AS ed
    ON ed.s = x.s AND ed.h = x.h + 1 AND ed.child IS NOT DISTINCT FROM x.node
  GROUP BY
    x.gid,
    x.s,
    ed.h,
    ed.parent
), height AS (
  SELECT
    s,
    CAST(MAX(h) AS INT128) AS top
  FROM "temp"."main"."tpl it's_tree it's"
  GROUP BY
    s
), e AS (
  SELECT
    gid,
    s,
    SUM(c) AS num
  FROM cost
  GROUP BY
    gid,
    s
), f AS (
  SELECT
    gid,
    s,
    MAX(m) AS m,
    MAX(bt) AS bt,
    BOOL_OR(CAST(bn = 0 AS BOOLEAN)) AS stray
  FROM cells
  GROUP BY
    gid,
    s
), d AS (
  SELECT
    e.gid,
    e.s,
    NOT f.stray AND e.num * $t_den <= $t_num * ht.top * f.m * f.bt AS ok,
    CASE
      WHEN f.stray
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(e.num AS DOUBLE) / CAST(ht.top * f.m * f.bt AS DOUBLE)
    END AS severity,
    e.num,
    ht.top * f.m * f.bt AS den
  FROM e
  JOIN f
    ON f.gid = e.gid AND f.s = e.s
  JOIN height AS ht
    ON ht.s = e.s
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
