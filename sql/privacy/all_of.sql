-- purpose: the verdict of several models at once (e.g. distinct l-diversity and t-closeness): a group passes when it passes every one
-- params: models
-- returns: creates target(gid, size, ok, severity); a group missing from a model's verdict fails; severity = the largest severity among the models the group fails (0 when it passes all)
-- ref: docs/decisions/0014-distribution-models.md (a release may require an l model and a distribution model together); every verdict table holds one row per group of the same statistics
{{ target | create_table }} AS
SELECT gid,
       max(size) AS size,
       bool_and(ok) AND count(*) = $models AS ok,
       coalesce(max(severity) FILTER (WHERE NOT ok), 0.0) AS severity
FROM (
{% for verdict in verdicts %}
    SELECT gid, CAST(size AS BIGINT) AS size, ok, CAST(severity AS DOUBLE) AS severity FROM {{ verdict | table }}
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
) AS v
GROUP BY gid
