-- purpose: one pass over the written release: its distinct rows (group id, QI labels, SA values, class) with their counts; the reconciliation, both verifications and the metrics read this instead of the release
-- params: none
-- returns: creates target(gid, q1..qd, s1..sk[, k], n): the release's group id (NULL for a release written without its group column), QI, SA (and class) columns as written, under positional names; n = rows
-- ref: DESIGN §6 (verify on the written table); issue 12 (one pass over the written table feeds every check of the release)
{{ target | create_table }} AS
SELECT
    {% if group_column %}{{ group_column | ident }}{% else %}CAST(NULL AS BIGINT){% endif %} AS gid,
{% for c in qi %}
    {{ c | ident }} AS {{ ('q' ~ loop.index) | ident }},
{% endfor %}
{% for c in sa %}
    {{ c | ident }} AS {{ ('s' ~ loop.index) | ident }},
{% endfor %}
{% if klass %}
    {{ klass | ident }} AS k,
{% endif %}
    count(*) AS n
FROM {{ output | table }}
GROUP BY ALL
