DROP TABLE IF EXISTS "pg_temp"."tpl it's_dist verdict";
/* purpose: t-closeness verdict per group, hierarchical ground distance level(LCA)/H over the SA's hierarchy: EMD = Σ_nodes (h/H)·min(positive extra, negative extra of the node's children) ≤ t = t_num/t_den, exactly in integers */
/* params: t_num, t_den */
/* returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity) */
/* ref: Li, Li, Venkatasubramanian 2007 §4.3 (hierarchical distance, extra(N) = Σ_leaves below N (p_i(G) − p_i)); tree: (s, v, h, node) per leaf and level, a node being (level, label); a group of one value v moves all its mass from v: m·pt(v) with pt(v) = Σ_u N_u·level(v, u) (the baseline table's); a group of several values is one row per (group, leaf) */
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
    b.v,
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
), extra AS (
  SELECT
    grid.gid,
    grid.s,
    tr.h,
    tr.node,
    SUM(grid.diff) AS x
  FROM grid
  JOIN "pg_temp"."tpl it's_tree it's" AS tr
    ON tr.s = grid.s
    AND (
      tr.v IS NULL
    ) = (
      grid.v IS NULL
    )
    AND COALESCE(CAST(tr.v AS TEXT), '') = COALESCE(CAST(grid.v AS TEXT), '')
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
    ed.h * LEAST(SUM(GREATEST(x.x, 0)), SUM(GREATEST(-x.x, 0))) AS c
  FROM extra AS x
  JOIN edge AS ed
    ON ed.s = x.s
    AND ed.h = x.h + 1
    AND (
      ed.child IS NULL
    ) = (
      x.node IS NULL
    )
    AND COALESCE(CAST(ed.child AS TEXT), '') = COALESCE(CAST(x.node AS TEXT), '')
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
    c.num,
    h.held < g.n_values AS stray
  FROM multi AS g
  JOIN (
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
  JOIN (
    SELECT
      gid,
      s,
      COUNT(*) FILTER(WHERE
        held) AS held
    FROM grid
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
