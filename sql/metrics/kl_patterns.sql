-- purpose: the distinct release patterns of the KL computation as integer codes: per QI the label's number among the attribute's labels, per SA the published value's rank among the source's SA values (-1 for an unknown SA, -2 for a value the source lacks), and the pattern's row count; with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each
-- params: none
-- returns: rows (l1..ld, t1..tk, c); label codes from metrics/labels.sql, SA codes from _macros/kl_sa_codes.sql
-- ref: SPEC §0.7 (KL: every published row spreads 1/|T*| over its region); a NULL ("unknown") SA covers every SA value of the source
{% set source_table = source | table %}
{% set counted = counted | default(false) %}
WITH {% include "_macros/kl_sa_codes.sql" %}
pat AS (
    SELECT
{% for c in rqi %}
        CAST({{ c | ident }} AS VARCHAR) AS l{{ loop.index }},
{% endfor %}
{% for c in rsa %}
        CAST({{ c | ident }} AS VARCHAR) AS t{{ loop.index }},
{% endfor %}
        {% if counted %}CAST(sum(n) AS BIGINT){% else %}count(*){% endif %} AS c
    FROM {{ release | table }}
    GROUP BY ALL
)
SELECT
{% for c in rqi %}
    k{{ loop.index }}.code AS l{{ loop.index }},
{% endfor %}
{% for c in rsa %}
    CASE WHEN pat.t{{ loop.index }} IS NULL THEN -1 ELSE coalesce(sd{{ loop.index }}.code, -2) END AS t{{ loop.index }},
{% endfor %}
    pat.c
FROM pat
{% for c in rqi %}
JOIN {{ labels | table }} AS k{{ loop.index }} ON k{{ loop.index }}.attr = {{ loop.index }} AND k{{ loop.index }}.label = pat.l{{ loop.index }}
{% endfor %}
{% for c in rsa %}
LEFT JOIN sdom{{ loop.index }} AS sd{{ loop.index }} ON sd{{ loop.index }}.v = pat.t{{ loop.index }}
{% endfor %}
