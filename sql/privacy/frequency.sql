-- purpose: l-eligibility (frequency l-diversity) verdict per group: l·h(G) <= |G|
-- params: ls
-- returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = l·h / |G|
-- ref: SPEC §0.2 (l-eligible, integer comparison); TP, Anatomy
{% if target is not none %}
{{ target | create_table }} AS
{% endif %}
SELECT gid,
       max(size) AS size,
       bool_and(list_extract($ls, s) * h <= size) AS ok,
       max(CAST(list_extract($ls, s) * h AS DOUBLE) / size) AS severity
FROM {{ stats | table }}
GROUP BY gid
