-- purpose: t-closeness verdict per group, ordered ground distance |i − j|/(M − 1) over the ranks of the baseline's M values: EMD = Σ_i |Σ_{j≤i} (p_j(G) − p_j)| / (M − 1) ≤ t = t_num/t_den, exactly in integers
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE
-- ref: Li, Li, Venkatasubramanian 2007 §4.2 (ordered distance); every (group, baseline value) pair is one row (a value absent from G counts 0), so the cost grows with groups × M; a group holding a value the baseline lacks fails
{{ target | create_table }} AS
WITH {% include "_macros/baseline_cells.sql" %}
, grid AS (
    SELECT g.gid, g.s, b.r, CAST(coalesce(hs.n, 0) AS HUGEINT) * t.bt - CAST(b.n AS HUGEINT) * CAST(g.known AS HUGEINT) AS diff
    FROM {{ stats | table }} AS g
    JOIN {{ baseline | table }} AS b ON b.s = g.s
    JOIN tot AS t ON t.s = g.s
    LEFT JOIN {{ hist | table }} AS hs ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown AND hs.v IS NOT DISTINCT FROM b.v
    WHERE g.known > 0
), run AS (
    SELECT gid, s, sum(diff) OVER (PARTITION BY gid, s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum
    FROM grid
), e AS (
    SELECT r.gid, r.s, sum(abs(r.cum)) AS num
    FROM run AS r
    GROUP BY r.gid, r.s
), f AS (
    SELECT gid, s, max(m) AS m, max(bt) AS bt, max(bm) AS bm, bool_or(bn = 0) AS stray
    FROM cells
    GROUP BY gid, s
), d AS (
    SELECT e.gid, e.s,
           NOT f.stray AND e.num * $t_den <= $t_num * greatest(f.bm - 1, 1) * f.m * f.bt AS ok,
           CASE WHEN f.stray THEN 'infinity'::DOUBLE
                ELSE CAST(e.num AS DOUBLE) / CAST(greatest(f.bm - 1, 1) * f.m * f.bt AS DOUBLE) END AS severity,
           e.num, greatest(f.bm - 1, 1) * f.m * f.bt AS den
    FROM e
    JOIN f ON f.gid = e.gid AND f.s = e.s
)
{% include "_macros/distribution_verdict.sql" %}
