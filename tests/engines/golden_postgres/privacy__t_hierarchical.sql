DROP TABLE IF EXISTS "pg_temp"."tpl it's_dist verdict";
/* purpose: t-closeness verdict per group, hierarchical ground distance level(LCA)/H over the SA's hierarchy: EMD = Σ_nodes (h/H)·min(positive extra, negative extra of the node's children) ≤ t = t_num/t_den, exactly in integers */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.3 (hierarchical distance, extra(N) = Σ_leaves below N (p_i(G) − p_i)); tree: (s, v, h, node) per leaf and level, a node being (level, label); a group of one value v moves all its mass from v: m·pt(v) with pt(v) = Σ_u N_u·level(v, u) (the baseline table's); a group of several values is read from its own leaves: per level and parent node, pos sums its children's positive extras x = N·n − m·B (n, B: the group's and the baseline's rows under the child), and neg = m·B_parent less, per child the group has rows under, m·B_child minus its negative part (a child without rows has x = −m·B_child); a parent none of whose children holds a row costs 0, so the work grows with the groups' values × H, not groups × leaves (ldiv_db/privacy/closeness.py: _hierarchical_cells_ok, the same integers) */
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
), cells AS (
  SELECT
    g.gid,
    g.s,
    g.m,
    g.bt,
    hs.v,
    CAST(hs.n AS DECIMAL) AS n
  FROM multi AS g
  JOIN "pg_temp"."tpl it's_hist" AS hs
    ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown
  JOIN "pg_temp"."tpl it's_baseline it's" AS b
    ON b.s = hs.s
    AND (
      b.v IS NULL
    ) = (
      hs.v IS NULL
    )
    AND COALESCE(CAST(b.v AS TEXT), '') = COALESCE(CAST(hs.v AS TEXT), '')
), under AS (
  SELECT
    tr.s,
    tr.h,
    tr.node,
    CAST(SUM(b.n) AS DECIMAL) AS bn
  FROM "pg_temp"."tpl it's_tree it's" AS tr
  JOIN "pg_temp"."tpl it's_baseline it's" AS b
    ON b.s = tr.s
    AND (
      b.v IS NULL
    ) = (
      tr.v IS NULL
    )
    AND COALESCE(CAST(b.v AS TEXT), '') = COALESCE(CAST(tr.v AS TEXT), '')
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
  JOIN "pg_temp"."tpl it's_tree it's" AS tr
    ON tr.s = c.s
    AND (
      tr.v IS NULL
    ) = (
      c.v IS NULL
    )
    AND COALESCE(CAST(tr.v AS TEXT), '') = COALESCE(CAST(c.v AS TEXT), '')
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
  FROM "pg_temp"."tpl it's_tree it's" AS a
  JOIN "pg_temp"."tpl it's_tree it's" AS p
    ON p.s = a.s
    AND (
      p.v IS NULL
    ) = (
      a.v IS NULL
    )
    AND COALESCE(CAST(p.v AS TEXT), '') = COALESCE(CAST(a.v AS TEXT), '')
    AND p.h = a.h + 1
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
    ON u.s = x.s
    AND u.h = x.h
    AND (
      u.node IS NULL
    ) = (
      x.node IS NULL
    )
    AND COALESCE(CAST(u.node AS TEXT), '') = COALESCE(CAST(x.node AS TEXT), '')
  JOIN edge AS ed
    ON ed.s = x.s
    AND ed.h = x.h + 1
    AND (
      ed.child IS NULL
    ) = (
      x.node IS NULL
    )
    AND COALESCE(CAST(ed.child AS TEXT), '') = COALESCE(CAST(x.node AS TEXT), '')
  JOIN under AS up
    ON up.s = ed.s
    AND up.h = ed.h
    AND (
      up.node IS NULL
    ) = (
      ed.parent IS NULL
    )
    AND COALESCE(CAST(up.node AS TEXT), '') = COALESCE(CAST(ed.parent AS TEXT), '')
  GROUP BY
    x.gid,
    x.s,
    ed.h,
    ed.parent
), height AS (
  SELECT
    s,
    CAST(MAX(h) AS DECIMAL) AS top
  FROM "pg_temp"."tpl it's_tree it's"
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
    e.m > 0
    AND NOT e.stray
    AND e.num * (
      CAST(%(t_den)s AS BIGINT)
    ) <= (
      CAST(%(t_num)s AS BIGINT)
    ) * ht.top * e.m * e.bt AS ok,
    CASE
      WHEN e.m = 0 OR e.stray
      THEN CAST('infinity' AS DOUBLE PRECISION)
      ELSE CAST(e.num AS DOUBLE PRECISION) / CAST(ht.top * e.m * e.bt AS DOUBLE PRECISION)
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
