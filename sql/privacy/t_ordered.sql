-- purpose: t-closeness verdict per group, ordered ground distance |i − j|/(M − 1) over the ranks of the baseline's M values: EMD = Σ_i |Σ_{j≤i} (p_j(G) − p_j)| / (M − 1) ≤ t = t_num/t_den, exactly in integers
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value, or holding a value the baseline lacks, fails (infinite severity)
-- ref: Li, Li, Venkatasubramanian 2007 §4.2 (ordered distance); a group of one value v moves all its mass from v: m·pt(v) with pt(v) = Σ_u N_u·|r_v − r_u| (the baseline table's). A group of several values: Σ_r |C_r| with C_r = N·c_r − m·K_r, c_r its rows at ranks ≤ r (a step at each of its values) and K_r the baseline's, increasing; between two steps c is constant, so the sum splits at the first rank where m·K_r ≥ N·c (found for every step at once by sorting the thresholds among the K_r) and each side is a prefix sum P of K: the work grows with the groups' values, not groups × M (ldiv_db/privacy/closeness.py: _ordered_cells_ok, the same integers)
--      Each step's split rank is read in the rows that found it (no join back to the steps), and the prefix sums on one key
--      (s, r) as s·2³² + r: with the SA's position as an equality of its own PostgreSQL merged or hashed on it alone (one value
--      for one SA) and filtered every pair, quadratic in the groups' values (decision 0038)
{{ target | create_table }} AS
WITH {% include "_macros/point_groups.sql" %}
, kb AS (
    SELECT s, r, CAST(sum(n) OVER (PARTITION BY s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS HUGEINT) AS k
    FROM {{ baseline | table }}
), pre AS (
    SELECT CAST(s AS BIGINT) * 4294967296 + r AS sr,
           coalesce(sum(k) OVER (PARTITION BY s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS p
    FROM kb
    UNION ALL
    SELECT CAST(s AS BIGINT) * 4294967296 + max(r) + 1, sum(k) FROM kb GROUP BY s
), cells AS (
    SELECT g.gid, g.s, g.m, g.bt, g.bm, b.r, CAST(hs.n AS HUGEINT) AS n
    FROM multi AS g
    JOIN {{ hist | table }} AS hs ON hs.gid = g.gid AND hs.s = g.s AND NOT hs.unknown
    JOIN {{ baseline | table }} AS b ON b.s = hs.s AND b.v IS NOT DISTINCT FROM hs.v
), steps AS (
    SELECT gid, s, m, bt, r AS a,
           coalesce(lead(r) OVER (PARTITION BY gid, s ORDER BY r), CAST(bm AS INTEGER) + 1) AS e,
           row_number() OVER (PARTITION BY gid, s ORDER BY r) = 1 AS is_first,
           bt * sum(n) OVER (PARTITION BY gid, s ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS level
    FROM cells
), marks AS (
    SELECT gid, s, m, level, is_first, a, e, (level + m - 1) // m AS key, 0 AS kind FROM steps
    UNION ALL
    SELECT NULL, s, NULL, NULL, NULL, NULL, NULL, k, 1 FROM kb
), found AS (
    SELECT gid, s, m, level, is_first, a, e, kind,
           1 + sum(kind) OVER (PARTITION BY s ORDER BY key, kind ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS found_at
    FROM marks
), split AS (
    SELECT gid, s, m, level, is_first, a, e, least(greatest(found_at, a), e) AS p, CAST(s AS BIGINT) * 4294967296 AS s0
    FROM found
    WHERE kind = 0
), terms AS (
    SELECT x.gid, x.s,
           x.level * (x.p - x.a) - x.m * (pp.p - pa.p) + x.m * (pe.p - pp.p) - x.level * (x.e - x.p)
           + CASE WHEN x.is_first THEN x.m * pa.p ELSE 0 END AS term
    FROM split AS x
    JOIN pre AS pa ON pa.sr = x.s0 + x.a
    JOIN pre AS pp ON pp.sr = x.s0 + x.p
    JOIN pre AS pe ON pe.sr = x.s0 + x.e
), e AS (
    SELECT g.gid, g.s, g.size, g.m, g.bt, g.bm, x.num, coalesce(x.held, 0) < g.n_values AS stray
    FROM multi AS g
    LEFT JOIN (SELECT gid, s, sum(term) AS num, count(*) AS held FROM terms GROUP BY gid, s) AS x
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
