-- purpose: top-down specialization: every row of the source once, in row id order, with the codes (topdown/values.sql) of its QI values and of its SA value
-- params: none
-- returns: rid, q1..qd, a1 (BIGINT codes; NULL, a value of its own with --null-as-value, is the column's count of values: the code after its last)
-- ref: SPEC §3.3 (every row starts at the root); SPEC §0.4 (leaves are the values as text)
WITH ldiv_counts AS (
    SELECT col, count(*) AS n FROM {{ values | table }} GROUP BY col
)
SELECT src.rowid AS rid
{% for c in columns %}
    , CAST(coalesce({{ ('v' ~ loop.index) | ident }}.code, (SELECT n FROM ldiv_counts WHERE col = {{ loop.index }}), 0) AS BIGINT) AS {{ ('q' ~ loop.index if not loop.last else 'a1') | ident }}
{% endfor %}
FROM {{ source | table }} AS src
{% for c in columns %}
LEFT JOIN {{ values | table }} AS {{ ('v' ~ loop.index) | ident }}
  ON {{ ('v' ~ loop.index) | ident }}.col = {{ loop.index }} AND {{ ('v' ~ loop.index) | ident }}.value = CAST(src.{{ c | ident }} AS VARCHAR)
{% endfor %}
ORDER BY src.rowid
