-- purpose: per given numeric column, how many rows hold NaN or an infinity (a numeric QI is generalized into ranges and medians, where neither has a place)
-- params: none
-- returns: one count per given column, in the given order
-- ref: DESIGN §6 (bad input gets a clear error that names the problem); compared as text, which every engine spells alike up to case: NaN / nan, Infinity / inf
SELECT
{% for c in columns %}
    count(*) FILTER (
        WHERE lower(CAST({{ c | ident }} AS VARCHAR)) IN ('nan', 'inf', '-inf', 'infinity', '-infinity')
    ) AS {{ ('n' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
FROM {{ source | table }}
