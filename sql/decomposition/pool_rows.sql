-- purpose: what group forming and noise read: per pool row its key, arrival and SA values as text, in the order of the seeded tie key of the row key
-- params: seed
-- returns: rk, arrived, s1..sk (VARCHAR) ordered by the seeded key of the row's rank by rk (a row key holds a PostgreSQL row id, a physical address: its rank is what every engine shares); with codes (decomposition/pool_values.sql's table), s1..sk are the codes of the rows' exact spellings (-1: none, a bug) instead of their text, which costs the fetch most of its time
-- ref: SPEC §0.6 (first-appearance order of the primary values follows the row order); DESIGN §6 (ties are broken by a seeded key, never by the source's row order: the row key is the source row id plus an offset); _macros/seeded_key.sql; DESIGN §5
WITH ldiv_keyed AS (
    SELECT CAST(row_number() OVER (ORDER BY rk) - 1 AS BIGINT) AS ldiv_k, rk, arrived{% for s in slots %}, CAST({{ s | ident }} AS VARCHAR) AS {{ ('s' ~ loop.index) | ident }}{% endfor %}

    FROM {{ pool | table }}
),
{% include "_macros/seeded_key.sql" %}

{% if codes %}
SELECT rk, arrived{% for s in slots %}, coalesce({{ ('ldiv_c' ~ loop.index) | ident }}.code, -1) AS {{ ('s' ~ loop.index) | ident }}{% endfor %}

FROM ldiv_keys
{% for s in slots %}
LEFT JOIN {{ codes | table }} AS {{ ('ldiv_c' ~ loop.index) | ident }}
    ON {{ ('ldiv_c' ~ loop.index) | ident }}.s = {{ loop.index }}
    AND {{ ('ldiv_c' ~ loop.index) | ident }}.v COLLATE C IS NOT DISTINCT FROM ldiv_keys.{{ ('s' ~ loop.index) | ident }} COLLATE C
{% endfor %}
{% else %}
SELECT rk, arrived{% for s in slots %}, {{ ('s' ~ loop.index) | ident }}{% endfor %}

FROM ldiv_keys
{% endif %}
ORDER BY ldiv_key, rk
