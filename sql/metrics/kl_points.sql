-- purpose: the distinct source points of the KL computation as integer codes: per QI the value's number in the attribute's domain, per SA the value's rank among the source's SA values, and the point's row count
-- params: none
-- returns: rows (x1..xd, s1..sk, n); codes are 0-based, -1 for a QI value outside the domain (NULL); ordered by the SA codes so that every first-SA value is one contiguous slice
-- ref: SPEC §0.7 (KL: F(x) over A_1 x ... x A_d x S); value codes as in metrics/kl_cover.sql (domain ordered by value text per attribute)
{% set source_table = source | table %}
WITH dom AS (
    SELECT attr, value, CAST(row_number() OVER (PARTITION BY attr ORDER BY value) - 1 AS INTEGER) AS code
    FROM {{ domain | table }}
),
{% for c in sa %}
sdom{{ loop.index }} AS (
    SELECT v, CAST(row_number() OVER (ORDER BY v) - 1 AS INTEGER) AS code
    FROM (SELECT DISTINCT CAST({{ c | ident }} AS VARCHAR) AS v FROM {{ source_table }}) AS d
),
{% endfor %}
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
)
SELECT
{% for c in qi %}
    coalesce(d{{ loop.index }}.code, -1) AS x{{ loop.index }},
{% endfor %}
{% for c in sa %}
    sd{{ loop.index }}.code AS s{{ loop.index }},
{% endfor %}
    pts.n
FROM pts
{% for c in qi %}
LEFT JOIN dom AS d{{ loop.index }} ON d{{ loop.index }}.attr = {{ loop.index }} AND d{{ loop.index }}.value = pts.x{{ loop.index }}
{% endfor %}
{% for c in sa %}
JOIN sdom{{ loop.index }} AS sd{{ loop.index }} ON sd{{ loop.index }}.v IS NOT DISTINCT FROM pts.s{{ loop.index }}
{% endfor %}
ORDER BY {% for c in sa %}sd{{ loop.index }}.code, {% endfor %}pts.n
