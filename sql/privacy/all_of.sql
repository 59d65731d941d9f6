-- purpose: the verdict of several models at once (e.g. distinct l-diversity and t-closeness): a group passes when it passes every one
-- params: none
-- returns: creates target(gid, size, ok, severity); a group missing from a model's verdict fails it; severity = the largest severity among the models the group fails (0 when it passes all)
-- ref: docs/decisions/0014-distribution-models.md (a release may require an l model and a distribution model together); the verdicts are joined on gid (each holds one row per group), not unioned and regrouped: one pass fewer over the groups
{{ target | create_table }} AS
SELECT coalesce({% for v in verdicts %}v{{ loop.index0 }}.gid{% if not loop.last %}, {% endif %}{% endfor %}) AS gid,
       CAST(coalesce({% for v in verdicts %}v{{ loop.index0 }}.size{% if not loop.last %}, {% endif %}{% endfor %}) AS BIGINT) AS size,
       {% for v in verdicts %}coalesce(v{{ loop.index0 }}.ok, false){% if not loop.last %} AND {% endif %}{% endfor %} AS ok,
       greatest({% for v in verdicts %}CASE WHEN coalesce(v{{ loop.index0 }}.ok, false) THEN 0.0 ELSE coalesce(CAST(v{{ loop.index0 }}.severity AS DOUBLE), 'infinity'::DOUBLE) END{% if not loop.last %}, {% endif %}{% endfor %}) AS severity
FROM {{ verdicts[0] | table }} AS v0
{% for v in verdicts[1:] %}
FULL OUTER JOIN {{ v | table }} AS v{{ loop.index }}
    ON v{{ loop.index }}.gid = coalesce({% for j in range(loop.index) %}v{{ j }}.gid{% if not loop.last %}, {% endif %}{% endfor %})
{% endfor %}
