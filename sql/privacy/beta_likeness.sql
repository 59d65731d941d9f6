-- purpose: β-likeness verdict per group: for every value v with p(v|G) > p(v), the relative gain (p(v|G) − p(v))/p(v) ≤ β = b_num/b_den exactly (enhanced: also ≤ −ln p(v), in floating point)
-- params: b_num, b_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's largest relative gain (worst SA; 0 when no value gains), severity = that as DOUBLE; a group without a known value fails
-- ref: Cao & Karras 2012 Def. 2 (basic β-likeness) and Def. 3 (enhanced: threshold min(β, −ln p(v))); gain = (n·N − N_v·m)/(N_v·m); p(v) = the baseline (whole input); a value the baseline lacks is an infinite gain
{{ target | create_table }} AS
WITH {% include "_macros/baseline_cells.sql" %}
, g AS (
    SELECT gid, s, unknown, n, bn, bt, m, n * bt - bn * m AS up, bn * m AS base,
           CASE WHEN unknown THEN 0.0
                WHEN bn = 0 THEN 'infinity'::DOUBLE
                ELSE greatest(0.0, CAST(n * bt - bn * m AS DOUBLE) / CAST(bn * m AS DOUBLE)) END AS gain
    FROM cells
), d AS (
    SELECT gid, s, sum(n) AS size,
           max(m) > 0 AND bool_and(unknown OR (bn > 0 AND (up <= 0 OR (up * $b_den <= $b_num * base
{% if enhanced %}
                    AND gain <= -ln(CAST(bn AS DOUBLE) / CAST(bt AS DOUBLE))
{% endif %}
           )))) AS ok,
           CASE WHEN max(m) = 0 THEN 'infinity'::DOUBLE ELSE max(gain) END AS severity,
           arg_max(CASE WHEN unknown OR up <= 0 THEN 0 ELSE up END, gain) AS num,
           arg_max(CASE WHEN unknown OR up <= 0 THEN 1 ELSE base END, gain) AS den
    FROM g
    GROUP BY gid, s
)
{% include "_macros/distribution_verdict.sql" %}
