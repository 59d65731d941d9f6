/* purpose: t-closeness verdict per group, hierarchical ground distance level(LCA)/H over the SA's hierarchy: EMD = Σ_nodes (h/H)·min(positive extra, negative extra of the node's children) ≤ t = t_num/t_den, exactly in integers */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.3 (hierarchical distance, extra(N) = Σ_leaves below N (p_i(G) − p_i)); tree: (s, v, h, node) per leaf and level, a node being (level, label); a group of one value v moves all its mass from v: m·pt(v) with pt(v) = Σ_u N_u·level(v, u) (the baseline table's); a group of several values is read from its own leaves: per level and parent node, pos sums its children's positive extras x = N·n − m·B (n, B: the group's and the baseline's rows under the child), and neg = m·B_parent less, per child the group has rows under, m·B_child minus its negative part (a child without rows has x = −m·B_child); a parent none of whose children holds a row costs 0, so the work grows with the groups' values × H, not groups × leaves (ldiv_db/privacy/closeness.py: _hierarchical_cells_ok, the same integers) */
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
), cells AS (
  SELECT
    g.gid,
    g.s,
    g.m,
    g.bt,
    hs.v,
    CAST(hs.n AS INT128) AS n
  FROM multi AS g
  JOIN "temp"."main"."tpl it's_hist" AS hs
    ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown
  JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
), under AS (
  SELECT
    tr.s,
    tr.h,
    tr.node,
    CAST(SUM(b.n) AS INT128) AS bn
  FROM "temp"."main"."tpl it's_tree it's" AS tr
  JOIN "temp"."main"."tpl it's_baseline it's" AS b
    ON b.s = tr.s AND b.v IS NOT DISTINCT FROM tr.v
  GROUP BY
    tr.s,
    tr.h,
    tr.node
), extra AS (
  SELECT
    c.gid,
    c.s,
    tr.h,
    tr.node,
    MAX(c.m) AS m,
    MAX(c.bt) * SUM(c.n) AS gn
  FROM cells AS c
  JOIN "temp"."main"."tpl it's_tree it's" AS tr
    ON tr.s = c.s AND tr.v IS NOT DISTINCT FROM c.v
  GROUP BY
    c.gid,
    c.s,
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
    ed.h * LEAST(
      SUM(GREATEST(x.gn - x.m * u.bn, 0)),
      MAX(x.m) * MAX(up.bn) - SUM(x.m * u.bn - GREATEST(x.m * u.bn - x.gn, 0))
    ) AS c
  FROM extra AS x
  JOIN under AS u
    ON u.s = x.s AND u.h = x.h AND u.node IS NOT DISTINCT FROM x.node
  JOIN edge AS ed
    ON ed.s = x.s AND ed.h = x.h + 1 AND ed.child IS NOT DISTINCT FROM x.node
  JOIN under AS up
    ON up.s = ed.s AND up.h = ed.h AND up.node IS NOT DISTINCT FROM ed.parent
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
    g.gid,
    g.s,
    g.size,
    g.m,
    g.bt,
    COALESCE(c.num, 0) AS num,
    COALESCE(h.held, 0) < g.n_values AS stray
  FROM multi AS g
  LEFT JOIN (
    SELECT
      gid,
      s,
      SUM(c) AS num
    FROM cost
    GROUP BY
      gid,
      s
  ) AS c
    ON c.gid = g.gid AND c.s = g.s
  LEFT JOIN (
    SELECT
      gid,
      s,
      COUNT(*) AS held
    FROM cells
    GROUP BY
      gid,
      s
  ) AS h
    ON h.gid = g.gid AND h.s = g.s
  UNION ALL
  SELECT
    gid,
    s,
    size,
    m,
    bt,
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
    NULL,
    FALSE
  FROM grp
  WHERE
    n_values = 0
), d AS (
  SELECT
    e.gid,
    e.s,
    e.size,
    e.m > 0 AND NOT e.stray AND e.num * $t_den <= $t_num * ht.top * e.m * e.bt AS ok,
    CASE
      WHEN e.m = 0 OR e.stray
      THEN CAST('infinity' AS DOUBLE)
      ELSE CAST(e.num AS DOUBLE) / CAST(ht.top * e.m * e.bt AS DOUBLE)
    END AS severity,
    e.num,
    ht.top * e.m * e.bt AS den
  FROM e
  JOIN height AS ht
    ON ht.s = e.s
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
