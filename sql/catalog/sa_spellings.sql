-- purpose: per given column, its distinct values as the column's collation holds them equal, and its distinct spellings (the bytes): more spellings than values means a nondeterministic collation (PostgreSQL: a case-insensitive ICU collation; DuckDB: COLLATE NOCASE) holds some spellings one value
-- params: none
-- returns: one row: per given column, v<i> (values) and b<i> (spellings), in the given order
-- ref: DESIGN §6 (bad input gets a clear error that names the problem); ldiv_db/core/inputs.py refuse_folded_sa (the algorithms that code SA values in Python, by their spelling)
SELECT
{% for c in columns %}
    count(DISTINCT {{ c | ident }}) AS {{ ('v' ~ loop.index) | ident }},
    count(DISTINCT CAST({{ c | ident }} AS VARCHAR) COLLATE "C") AS {{ ('b' ~ loop.index) | ident }}{% if not loop.last %},{% endif %}

{% endfor %}
FROM {{ source | table }}
