-- purpose: top-down specialization: per column it reads (QIs 1..d, the SA as d + 1) its distinct values as text, numbered in order of first appearance (row id order)
-- params: none
-- returns: creates target(col, code, value): code 0, 1, ... per column; NULL is no value here (topdown/rows.sql gives it the code after the column's last)
-- ref: SPEC §3.3 (every row starts at the root); SPEC §0.4 (leaves are the values as text); the rows cross into Python as these codes, not as text (one int per cell)
{{ target | create_table }} AS
{% for c in columns %}
SELECT {{ loop.index }} AS col, CAST(row_number() OVER (ORDER BY first_rid) - 1 AS BIGINT) AS code, value
FROM (
    SELECT CAST(src.{{ c | ident }} AS VARCHAR) AS value, min(src.rowid) AS first_rid
    FROM {{ source | table }} AS src
    WHERE src.{{ c | ident }} IS NOT NULL
    GROUP BY CAST(src.{{ c | ident }} AS VARCHAR)
) AS {{ ('d' ~ loop.index) | ident }}
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
