-- purpose: t-closeness verdict per group, equal ground distance: EMD = ½·Σ_v |p(v|G) − p(v)| ≤ t = t_num/t_den, exactly as t_den·Σ_v |n_v·N − N_v·m| ≤ t_num·2·m·N
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE; a group without a known value fails (infinite severity)
-- ref: Li, Li, Venkatasubramanian 2007 §4.2 (equal distance: the variational distance); p(v) = the baseline (whole input); values absent from G add N_v·m each, summed as m·(N − Σ present N_v)
{{ target | create_table }} AS
WITH {% include "_macros/baseline_cells.sql" %}
, e AS (
    SELECT gid, s, sum(n) AS size, max(m) AS m, max(bt) AS bt,
           coalesce(sum(abs(n * bt - bn * m)) FILTER (WHERE NOT unknown), 0) AS gaps, sum(bn) AS covered
    FROM cells
    GROUP BY gid, s
), d AS (
    SELECT gid, s, size,
           m > 0 AND (gaps + m * (bt - covered)) * $t_den <= $t_num * 2 * m * bt AS ok,
           CASE WHEN m = 0 THEN 'infinity'::DOUBLE
                ELSE CAST(gaps + m * (bt - covered) AS DOUBLE) / CAST(2 * m * bt AS DOUBLE) END AS severity,
           gaps + m * (bt - covered) AS num, 2 * m * bt AS den
    FROM e
)
{% include "_macros/distribution_verdict.sql" %}
