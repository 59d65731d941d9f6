-- purpose: entropy l-diversity verdict per group: -sum p ln p >= ln l (tolerance 1e-12)
-- params: ls
-- returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = ln l - entropy
-- ref: SPEC §0.2 (entropy l-diversity, natural log, 1e-12 tolerance)
{% if target is not none %}
{{ target | create_table }} AS
{% endif %}
SELECT gid,
       max(size) AS size,
       bool_and(coalesce(entropy >= ln(list_extract($ls, s)) - 1e-12, false)) AS ok,
       max(ln(list_extract($ls, s)) - coalesce(entropy, 0.0)) AS severity
FROM {{ stats | table }}
GROUP BY gid
