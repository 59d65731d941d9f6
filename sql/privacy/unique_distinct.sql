-- purpose: Unique Distinct l-diversity verdict per group: no SA value repeats and at least l distinct values
-- params: ls
-- returns: creates target(gid, size, ok, severity, exact_l); exact_l = the group has exactly l distinct values
-- ref: SPEC §2.1 (Unique Distinct l-diversity; incorporated classes hold l+1 distinct values)
{{ target | create_table }} AS
SELECT gid,
       max(size) AS size,
       bool_and(size = n_values AND n_values >= list_extract($ls, s)) AS ok,
       max(CAST((size - n_values) + greatest(list_extract($ls, s) - n_values, 0) AS DOUBLE)) AS severity,
       bool_and(n_values = list_extract($ls, s)) AS exact_l
FROM {{ stats | table }}
GROUP BY gid
