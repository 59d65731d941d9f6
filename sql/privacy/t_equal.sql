-- purpose: t-closeness verdict per group, equal ground distance: EMD = ½·Σ_v |p(v|G) − p(v)| ≤ t = t_num/t_den, exactly as t_den·Σ_v |n_v·N − N_v·m| ≤ t_num·2·m·N
-- params: t_num, t_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's distance (worst SA), severity = that as DOUBLE
-- ref: Li, Li, Venkatasubramanian 2007 §4.2 (equal distance: the variational distance); p(v) = the baseline (whole input); values absent from G add N_v·m each, summed as m·(N − Σ present N_v)
{{ target | create_table }} AS
WITH {% include "_macros/baseline_cells.sql" %}
, e AS (
    SELECT gid, s, sum(abs(n * bt - bn * m)) + max(m) * (max(bt) - sum(bn)) AS num, 2 * max(m) * max(bt) AS den
    FROM cells
    GROUP BY gid, s
), d AS (
    SELECT gid, s, num * $t_den <= $t_num * den AS ok, CAST(num AS DOUBLE) / CAST(den AS DOUBLE) AS severity, num, den
    FROM e
)
{% include "_macros/distribution_verdict.sql" %}
