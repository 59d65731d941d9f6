-- purpose: distinct l-diversity verdict per group: at least l_s distinct values of every SA s
-- params: ls
-- returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = l - distinct (worst SA)
-- ref: SPEC §0.2 (distinct l-diversity); §4.1 (one l per SA)
{% if target is not none %}
{{ target | create_table }} AS
{% endif %}
SELECT gid,
       max(size) AS size,
       bool_and(n_values >= list_extract($ls, s)) AS ok,
       max(CAST(list_extract($ls, s) - n_values AS DOUBLE)) AS severity
FROM {{ stats | table }}
GROUP BY gid
