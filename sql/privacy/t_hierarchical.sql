-- purpose: t-closeness verdict per group, hierarchical ground distance level(LCA)/H over the SA's hierarchy: EMD = Σ_nodes (h/H)·min(positive extra, negative extra of the node's children) ≤ t = t_num/t_den, exactly in integers
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity)
-- ref: Li, Li, Venkatasubramanian 2007 §4.3 (hierarchical distance, extra(N) = Σ_leaves below N (p_i(G) − p_i)); tree: (s, v, h, node) per leaf and level; a node is (level, label); every (group, leaf) pair is one row
{{ target | create_table }} AS
WITH {% include "_macros/baseline_cells.sql" %}
, grp AS (
    SELECT gid, s, sum(n) AS size, max(m) AS m, max(bt) AS bt, bool_or(NOT unknown AND bn = 0) AS stray
    FROM cells
    GROUP BY gid, s
), grid AS (
    SELECT g.gid, g.s, b.v, CAST(coalesce(hs.n, 0) AS HUGEINT) * g.bt - CAST(b.n AS HUGEINT) * g.m AS diff
    FROM grp AS g
    JOIN {{ baseline | table }} AS b ON b.s = g.s
    LEFT JOIN {{ hist | table }} AS hs ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown AND hs.v IS NOT DISTINCT FROM b.v
    WHERE g.m > 0
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
    SELECT gid, s, sum(c) AS num
    FROM cost
    GROUP BY gid, s
), d AS (
    SELECT g.gid, g.s, g.size,
           g.m > 0 AND NOT g.stray AND e.num * $t_den <= $t_num * ht.top * g.m * g.bt AS ok,
           CASE WHEN g.m = 0 OR g.stray THEN 'infinity'::DOUBLE
                ELSE CAST(e.num AS DOUBLE) / CAST(ht.top * g.m * g.bt AS DOUBLE) END AS severity,
           e.num, ht.top * g.m * g.bt AS den
    FROM grp AS g
    JOIN height AS ht ON ht.s = g.s
    LEFT JOIN e ON e.gid = g.gid AND e.s = g.s
)
{% include "_macros/distribution_verdict.sql" %}
