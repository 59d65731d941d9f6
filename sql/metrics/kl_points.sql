-- purpose: the distinct source points of the KL computation as integer codes: per QI the value's number in the attribute's domain, per SA the value's rank among the source's SA values, and the point's row count
-- params: none
-- returns: rows (x1..xd, s1..sk, n); codes are 0-based, -1 for a QI value outside the domain (NULL)
-- ref: SPEC §0.7 (KL: F(x) over A_1 x ... x A_d x S); value codes from metrics/domain.sql, SA codes from _macros/kl_sa_codes.sql
{% set source_table = source | table %}
WITH {% include "_macros/kl_sa_codes.sql" %}
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
LEFT JOIN {{ domain | table }} AS d{{ loop.index }} ON d{{ loop.index }}.attr = {{ loop.index }} AND d{{ loop.index }}.value = pts.x{{ loop.index }}
{% endfor %}
{% for c in sa %}
JOIN sdom{{ loop.index }} AS sd{{ loop.index }} ON sd{{ loop.index }}.v IS NOT DISTINCT FROM pts.s{{ loop.index }}
{% endfor %}
