-- purpose: NULL count per column (QI and SA columns must be NULL-free unless --null-as-value)
-- params: none
-- returns: one column per checked column, in the given order
-- ref: DESIGN §6 (NULLs in QI/SA: say how many)
SELECT
{% for c in columns %}
    count(*) FILTER (WHERE {{ c | ident }} IS NULL) AS {{ ('n' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}
{% endfor %}
FROM {{ source | table }}
