-- purpose: what group forming and noise read: per pool row its key, arrival and SA values as text, in the order of the seeded tie key of the row key
-- params: seed
-- returns: rk, arrived, s1..sk (VARCHAR) ordered by the seeded key of the row's rank by rk (a row key holds a PostgreSQL row id, a physical address: its rank is what every engine shares)
-- ref: SPEC §0.6 (first-appearance order of the primary values follows the row order); DESIGN §6 (ties are broken by a seeded key, never by the source's row order: the row key is the source row id plus an offset); _macros/seeded_key.sql; DESIGN §5
WITH ldiv_keyed AS (
    SELECT CAST(row_number() OVER (ORDER BY rk) - 1 AS BIGINT) AS ldiv_k, rk, arrived{% for s in slots %}, CAST({{ s | ident }} AS VARCHAR) AS {{ ('s' ~ loop.index) | ident }}{% endfor %}

    FROM {{ pool | table }}
),
{% include "_macros/seeded_key.sql" %}

SELECT rk, arrived{% for s in slots %}, {{ ('s' ~ loop.index) | ident }}{% endfor %}

FROM ldiv_keys
ORDER BY ldiv_key, rk
