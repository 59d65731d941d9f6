-- purpose: what group forming and noise read: per pool row its key, arrival and SA values as text, in row-key order
-- params: none
-- returns: rk, arrived, s1..sk (VARCHAR) ordered by rk
-- ref: SPEC §0.6 (first-appearance order of the primary values follows the row keys); DESIGN §5
SELECT rk, arrived{% for s in slots %}, CAST({{ s | ident }} AS VARCHAR) AS {{ ('s' ~ loop.index) | ident }}{% endfor %}

FROM {{ pool | table }}
ORDER BY rk
