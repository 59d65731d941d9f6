-- purpose: l+-diversity verdict per group: every value s has G(s) <= theta_s·|G|, theta = p/q exactly (default p_default/q_default)
-- params: p_default, q_default
-- returns: creates target(gid, size, ok, severity); severity = max G(s)·q / (p·|G|)
-- ref: SPEC §5.1 (per-value thresholds; unknown SA rows stay in the denominator)
{{ target | create_table }} AS
WITH {% include "_macros/threshold_cells.sql" %}

SELECT gid,
       CAST(max(size) AS BIGINT) AS size,
       bool_and(n * q <= p * size) AS ok,
       max(CASE WHEN p = 0 THEN 'infinity'::DOUBLE ELSE CAST(n * q AS DOUBLE) / CAST(p * size AS DOUBLE) END) AS severity
FROM c
GROUP BY gid
