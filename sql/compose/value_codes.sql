-- purpose: the targets' values of every QI (as text) with an integer code each, so that the covering join compares integers
-- params: none
-- returns: creates target(attr, value, code); attr is the QI's position among the targets' QIs, code numbers its values in the bytes' order from 1
-- ref: docs/decisions/0005-composition-check.md; DESIGN §5 (code first, join small integer tables)
{{ target | create_table }} AS
{% for c in qi %}
SELECT {{ loop.index }} AS attr, value, CAST(row_number() OVER (ORDER BY value COLLATE "C") AS INTEGER) AS code
FROM (SELECT DISTINCT CAST({{ c | ident }} AS VARCHAR) AS value FROM {{ source | table }}) AS {{ ('d' ~ loop.index) | ident }}
{% if not loop.last %}
UNION ALL
{% endif %}
{% endfor %}
