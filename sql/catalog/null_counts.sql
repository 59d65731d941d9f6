-- purpose: the table's row count and the NULL count per column (QI and SA columns must be NULL-free unless --null-as-value), in one scan
-- params: none
-- returns: rows, then one column per checked column, in the given order
-- ref: DESIGN §6 (NULLs in QI/SA: say how many)
SELECT
    count(*) AS {{ 'rows' | ident }}{% if columns %},{% endif %}

{% for c in columns %}
    count(*) FILTER (WHERE {{ c | ident }} IS NULL) AS {{ ('n' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
FROM {{ source | table }}
