-- purpose: t-closeness verdict per group, equal ground distance: EMD = ½·Σ_v |p(v|G) − p(v)| ≤ t = t_num/t_den, exactly as t_den·Σ_v |n_v·N − N_v·m| ≤ t_num·2·m·N
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value fails (infinite severity)
-- ref: Li, Li, Venkatasubramanian 2007 §4.2 (equal distance: the variational distance); p(v) = the baseline (whole input); values absent from G add N_v·m each, summed as m·(N − Σ present N_v). A group of one known value v (most groups of a large table) has distance 1 − N_v/N = 2·m·(N − N_v) / (2·m·N), read from its one histogram row without grouping; only the groups of several values are grouped. m = the statistics' known rows
{{ target | create_table }} AS
WITH tot AS (
    SELECT s, CAST(sum(n) AS HUGEINT) AS bt
    FROM {{ baseline | table }}
    GROUP BY s
), cells AS (
    SELECT hs.gid, hs.s, g.size, g.n_values, CAST(g.known AS HUGEINT) AS m, t.bt,
           CAST(hs.n AS HUGEINT) AS n, CAST(coalesce(b.n, 0) AS HUGEINT) AS bn
    FROM {{ hist | table }} AS hs
    JOIN {{ stats | table }} AS g ON g.gid = hs.gid AND g.s = hs.s
    JOIN tot AS t ON t.s = hs.s
    LEFT JOIN {{ baseline | table }} AS b ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
    WHERE NOT hs.unknown
), e AS (
    SELECT gid, s, size, m, bt, 2 * m * (bt - bn) AS num
    FROM cells
    WHERE n_values = 1
    UNION ALL
    SELECT gid, s, max(size), max(m), max(bt), sum(abs(n * bt - bn * m)) + max(m) * (max(bt) - sum(bn))
    FROM cells
    WHERE n_values > 1
    GROUP BY gid, s
    UNION ALL
    SELECT gid, s, size, 0, 1, NULL
    FROM {{ stats | table }}
    WHERE n_values = 0
), d AS (
    SELECT gid, s, size,
           m > 0 AND num * $t_den <= $t_num * 2 * m * bt AS ok,
           CASE WHEN m = 0 THEN 'infinity'::DOUBLE ELSE CAST(num AS DOUBLE) / CAST(2 * m * bt AS DOUBLE) END AS severity,
           num, 2 * m * bt AS den
    FROM e
)
{% include "_macros/distribution_verdict.sql" %}
