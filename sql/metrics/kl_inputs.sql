-- purpose: the source points and the release patterns of the KL computation in one statement, as integer codes: part 1 = the distinct source points (per QI the value's number in the attribute's domain, per SA the value's rank among the source's SA values, and the point's row count); part 2 = the distinct release patterns (per QI the label's number among the attribute's labels, per SA the published value's rank among the source's SA values, -1 for an unknown SA, -2 for a value the source lacks, and the pattern's row count); with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each; with parts = 'points' or 'patterns' only that part (the points can then be read on a second connection while this one writes the release)
-- params: none
-- returns: rows (part, c1..cd, c{d+1}..c{d+k}, n): part 1 rows are points (x1..xd, s1..sk, n), part 2 rows are patterns (l1..ld, t1..tk, c); codes are 0-based, -1 for a QI value outside the domain (NULL); value codes from metrics/domain.sql, label codes from metrics/labels.sql, SA codes shared by both parts
-- ref: SPEC §0.7 (KL: F(x) over A_1 x ... x A_d x S; every published row spreads 1/|T*| over its region); a NULL ("unknown") SA covers every SA value of the source
{% set source_table = source | table %}
{% set counted = counted | default(false) %}
{% set parts = parts | default('both') %}
WITH
{% for c in sa %}
sdom{{ loop.index }} AS (
    SELECT v, CAST(row_number() OVER (ORDER BY v) - 1 AS INTEGER) AS code
    FROM (SELECT DISTINCT CAST({{ c | ident }} AS VARCHAR) AS v FROM {{ source_table }}) AS d
),
{% endfor %}
{% if parts != 'patterns' %}
pts AS (
    SELECT
{% for c in qi %}
        CAST({{ c | ident }} AS VARCHAR) AS x{{ loop.index }},
{% endfor %}
{% for c in sa %}
        CAST({{ c | ident }} AS VARCHAR) AS s{{ loop.index }},
{% endfor %}
        count(*) AS n
    FROM {{ source_table }}
    GROUP BY ALL
){% if parts == 'both' %},{% endif %}

{% endif %}
{% if parts != 'points' %}
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
{% endif %}
{% if parts != 'patterns' %}
SELECT
    1 AS part,
{% for c in qi %}
    coalesce(d{{ loop.index }}.code, -1) AS c{{ loop.index }},
{% endfor %}
{% for c in sa %}
    sd{{ loop.index }}.code AS c{{ qi | length + loop.index }},
{% endfor %}
    CAST(pts.n AS BIGINT) AS n
FROM pts
{% for c in qi %}
LEFT JOIN {{ domain | table }} AS d{{ loop.index }} ON d{{ loop.index }}.attr = {{ loop.index }} AND d{{ loop.index }}.value = pts.x{{ loop.index }}
{% endfor %}
{% for c in sa %}
JOIN sdom{{ loop.index }} AS sd{{ loop.index }} ON sd{{ loop.index }}.v IS NOT DISTINCT FROM pts.s{{ loop.index }}
{% endfor %}
{% endif %}
{% if parts == 'both' %}
UNION ALL
{% endif %}
{% if parts != 'points' %}
SELECT
    2 AS part,
{% for c in rqi %}
    k{{ loop.index }}.code AS c{{ loop.index }},
{% endfor %}
{% for c in rsa %}
    CASE WHEN pat.t{{ loop.index }} IS NULL THEN -1 ELSE coalesce(sp{{ loop.index }}.code, -2) END AS c{{ qi | length + loop.index }},
{% endfor %}
    CAST(pat.c AS BIGINT) AS n
FROM pat
{% for c in rqi %}
JOIN {{ labels | table }} AS k{{ loop.index }} ON k{{ loop.index }}.attr = {{ loop.index }} AND k{{ loop.index }}.label = pat.l{{ loop.index }}
{% endfor %}
{% for c in rsa %}
LEFT JOIN sdom{{ loop.index }} AS sp{{ loop.index }} ON sp{{ loop.index }}.v = pat.t{{ loop.index }}
{% endfor %}
{% endif %}
