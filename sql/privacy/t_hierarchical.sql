-- purpose: t-closeness verdict per group, hierarchical ground distance level(LCA)/H over the SA's hierarchy: EMD = Σ_nodes (h/H)·min(positive extra, negative extra of the node's children) ≤ t = t_num/t_den, exactly in integers
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity)
-- ref: Li, Li, Venkatasubramanian 2007 §4.3 (hierarchical distance, extra(N) = Σ_leaves below N (p_i(G) − p_i)); tree: (s, v, h, node) per leaf and level, a node being (level, label); a group of one value v moves all its mass from v: m·pt(v) with pt(v) = Σ_u N_u·level(v, u) (the baseline table's); a group of several values is one row per (group, leaf)
{{ target | create_table }} AS
WITH {% include "_macros/point_groups.sql" %}
, grid AS (
    SELECT g.gid, g.s, b.v, hs.n IS NOT NULL AS held,
           CAST(coalesce(hs.n, 0) AS HUGEINT) * g.bt - CAST(b.n AS HUGEINT) * g.m AS diff
    FROM multi AS g
    JOIN {{ baseline | table }} AS b ON b.s = g.s
    LEFT JOIN {{ hist | table }} AS hs ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown AND hs.v IS NOT DISTINCT FROM b.v
), extra AS (
    SELECT grid.gid, grid.s, tr.h, tr.node, sum(grid.diff) AS x
    FROM grid
    JOIN {{ tree | table }} AS tr ON tr.s = grid.s AND tr.v IS NOT DISTINCT FROM grid.v
    GROUP BY grid.gid, grid.s, tr.h, tr.node
), edge AS (
    SELECT DISTINCT a.s, p.h, a.node AS child, p.node AS parent
    FROM {{ tree | table }} AS a
    JOIN {{ tree | table }} AS p ON p.s = a.s AND p.v IS NOT DISTINCT FROM a.v AND p.h = a.h + 1
), cost AS (
    SELECT x.gid, x.s, ed.h * least(sum(greatest(x.x, 0)), sum(greatest(-x.x, 0))) AS c
    FROM extra AS x
    JOIN edge AS ed ON ed.s = x.s AND ed.h = x.h + 1 AND ed.child IS NOT DISTINCT FROM x.node
    GROUP BY x.gid, x.s, ed.h, ed.parent
), height AS (
    SELECT s, CAST(max(h) AS HUGEINT) AS top
    FROM {{ tree | table }}
    GROUP BY s
), e AS (
    SELECT g.gid, g.s, g.size, g.m, g.bt, c.num, h.held < g.n_values AS stray
    FROM multi AS g
    JOIN (SELECT gid, s, sum(c) AS num FROM cost GROUP BY gid, s) AS c ON c.gid = g.gid AND c.s = g.s
    JOIN (SELECT gid, s, count(*) FILTER (WHERE held) AS held FROM grid GROUP BY gid, s) AS h
        ON h.gid = g.gid AND h.s = g.s
    UNION ALL
    SELECT gid, s, size, m, bt, num, stray FROM single
    UNION ALL
    SELECT gid, s, size, m, bt, NULL, false FROM grp WHERE n_values = 0
), d AS (
    SELECT e.gid, e.s, e.size,
           e.m > 0 AND NOT e.stray AND e.num * $t_den <= $t_num * ht.top * e.m * e.bt AS ok,
           CASE WHEN e.m = 0 OR e.stray THEN 'infinity'::DOUBLE
                ELSE CAST(e.num AS DOUBLE) / CAST(ht.top * e.m * e.bt AS DOUBLE) END AS severity,
           e.num, ht.top * e.m * e.bt AS den
    FROM e
    JOIN height AS ht ON ht.s = e.s
)
{% include "_macros/distribution_verdict.sql" %}
