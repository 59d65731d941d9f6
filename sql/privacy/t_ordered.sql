-- purpose: t-closeness verdict per group, ordered ground distance |i − j|/(M − 1) over the ranks of the baseline's M values: EMD = Σ_i |Σ_{j≤i} (p_j(G) − p_j)| / (M − 1) ≤ t = t_num/t_den, exactly in integers
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity)
-- ref: Li, Li, Venkatasubramanian 2007 §4.2 (ordered distance); a group of one value v moves all its mass from v: m·pt(v) with pt(v) = Σ_u N_u·|r_v − r_u| (the baseline table's); a group of several values is one row per (group, baseline value) (a value absent from it counts 0), so that part grows with those groups × M
{{ target | create_table }} AS
WITH {% include "_macros/point_groups.sql" %}
, grid AS (
    SELECT g.gid, g.s, b.r, hs.n IS NOT NULL AS held,
           CAST(coalesce(hs.n, 0) AS HUGEINT) * g.bt - CAST(b.n AS HUGEINT) * g.m AS diff
    FROM multi AS g
    JOIN {{ baseline | table }} AS b ON b.s = g.s
    LEFT JOIN {{ hist | table }} AS hs ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown AND hs.v IS NOT DISTINCT FROM b.v
), run AS (
    SELECT gid, s, held, sum(diff) OVER (PARTITION BY gid, s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum
    FROM grid
), e AS (
    SELECT g.gid, g.s, g.size, g.m, g.bt, g.bm, x.num, x.held < g.n_values AS stray
    FROM multi AS g
    JOIN (SELECT gid, s, sum(abs(cum)) AS num, count(*) FILTER (WHERE held) AS held FROM run GROUP BY gid, s) AS x
        ON x.gid = g.gid AND x.s = g.s
    UNION ALL
    SELECT gid, s, size, m, bt, bm, num, stray FROM single
    UNION ALL
    SELECT gid, s, size, m, bt, bm, NULL, false FROM grp WHERE n_values = 0
), d AS (
    SELECT gid, s, size,
           m > 0 AND NOT stray AND num * $t_den <= $t_num * greatest(bm - 1, 1) * m * bt AS ok,
           CASE WHEN m = 0 OR stray THEN 'infinity'::DOUBLE
                ELSE CAST(num AS DOUBLE) / CAST(greatest(bm - 1, 1) * m * bt AS DOUBLE) END AS severity,
           num, greatest(bm - 1, 1) * m * bt AS den
    FROM e
)
{% include "_macros/distribution_verdict.sql" %}
