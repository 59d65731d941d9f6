-- purpose: β-likeness verdict per group: for every value v with p(v|G) > p(v), the relative gain (p(v|G) − p(v))/p(v) ≤ β = b_num/b_den exactly (enhanced: also ≤ −ln p(v), in floating point)
-- params: b_num, b_den
-- returns: creates target(gid, size, ok, severity, num, den); num/den = the group's largest relative gain (worst SA; 0 when no value gains), severity = that as DOUBLE
-- ref: Cao & Karras 2012 Def. 2 (basic β-likeness) and Def. 3 (enhanced: threshold min(β, −ln p(v))); gain = (n·N − N_v·m)/(N_v·m); p(v) = the baseline (whole input); a value the baseline lacks is an infinite gain
{{ target | create_table }} AS
WITH {% include "_macros/baseline_cells.sql" %}
, g AS (
    SELECT gid, s, bn, bt, n * bt - bn * m AS up, bn * m AS base
    FROM cells
), d AS (
    SELECT gid, s,
           bool_and(bn > 0 AND (up <= 0 OR (up * $b_den <= $b_num * base
{% if enhanced %}
                    AND CAST(up AS DOUBLE) / CAST(base AS DOUBLE) <= -ln(CAST(bn AS DOUBLE) / CAST(bt AS DOUBLE))
{% endif %}
           ))) AS ok,
           max(CASE WHEN bn = 0 THEN 'infinity'::DOUBLE ELSE greatest(0.0, CAST(up AS DOUBLE) / CAST(base AS DOUBLE)) END) AS severity,
           arg_max(CASE WHEN up > 0 THEN up ELSE 0 END, CASE WHEN bn = 0 THEN 'infinity'::DOUBLE ELSE CAST(up AS DOUBLE) / CAST(base AS DOUBLE) END) AS num,
           arg_max(CASE WHEN up > 0 THEN base ELSE 1 END, CASE WHEN bn = 0 THEN 'infinity'::DOUBLE ELSE CAST(up AS DOUBLE) / CAST(base AS DOUBLE) END) AS den
    FROM g
    GROUP BY gid, s
)
{% include "_macros/distribution_verdict.sql" %}
