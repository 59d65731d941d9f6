-- purpose: t-closeness verdict per group, ordered ground distance |i − j|/(M − 1) over the ranks of the baseline's M values: EMD = Σ_i |Σ_{j≤i} (p_j(G) − p_j)| / (M − 1) ≤ t = t_num/t_den, exactly in integers
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity)
-- ref: Li, Li, Venkatasubramanian 2007 §4.2 (ordered distance); every (group, baseline value) pair is one row (a value absent from G counts 0), so the cost grows with groups × M
{{ target | create_table }} AS
WITH {% include "_macros/baseline_cells.sql" %}
, grp AS (
    SELECT gid, s, sum(n) AS size, max(m) AS m, max(bt) AS bt, greatest(max(bm) - 1, 1) AS span,
           bool_or(NOT unknown AND bn = 0) AS stray
    FROM cells
    GROUP BY gid, s
), grid AS (
    SELECT g.gid, g.s, b.r, CAST(coalesce(hs.n, 0) AS HUGEINT) * g.bt - CAST(b.n AS HUGEINT) * g.m AS diff
    FROM grp AS g
    JOIN {{ baseline | table }} AS b ON b.s = g.s
    LEFT JOIN {{ hist | table }} AS hs ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown AND hs.v IS NOT DISTINCT FROM b.v
    WHERE g.m > 0
), run AS (
    SELECT gid, s, sum(diff) OVER (PARTITION BY gid, s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum
    FROM grid
), e AS (
    SELECT gid, s, sum(abs(cum)) AS num
    FROM run
    GROUP BY gid, s
), d AS (
    SELECT g.gid, g.s, g.size,
           g.m > 0 AND NOT g.stray AND e.num * $t_den <= $t_num * g.span * g.m * g.bt AS ok,
           CASE WHEN g.m = 0 OR g.stray THEN 'infinity'::DOUBLE
                ELSE CAST(e.num AS DOUBLE) / CAST(g.span * g.m * g.bt AS DOUBLE) END AS severity,
           e.num, g.span * g.m * g.bt AS den
    FROM grp AS g
    LEFT JOIN e ON e.gid = g.gid AND e.s = g.s
)
{% include "_macros/distribution_verdict.sql" %}
