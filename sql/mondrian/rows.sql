-- purpose: Mondrian's working rows: per row one ordinal per QI (numeric: the value; hierarchy: the leaf's preorder node id; flat: dense rank of the value), and its SA values as text
-- params: hids
-- returns: creates target(rid, o1..od DOUBLE, s1..sk VARCHAR); a hierarchy QI whose value is not a leaf gets o<i> NULL
-- ref: LeFevre, DeWitt, Ramakrishnan, ICDE 2006 (Mondrian; strict partitioning never separates equal QI vectors); SPEC §0.4 (preorder ids order a hierarchy's leaves left to right)
--      the QI vector is its ordinals: no vector id per row (numbering the vectors and joining every row back to its
--      number cost more than the statement's other work); mondrian/vectors.sql groups by them, the caller numbers the
--      vectors and mondrian/assignment.sql joins the rows back to their class on them
--      texts (per QI): a character column, whose values are ranked in the bytes' order (COLLATE "C"), the order of every engine, not the database's collation (a PostgreSQL database in an ICU or libc locale orders 'Banana' before 'apple' differently, and its release would differ from DuckDB's)
{{ target | create_table }} AS
SELECT src.rowid AS rid
{% for c in qi %}
{% set i = loop.index %}
{% if kinds[loop.index0] == 'hierarchy' %}
     , CAST({{ ('n' ~ i) | ident }}.node_id AS DOUBLE) AS {{ ('o' ~ i) | ident }}
{% elif kinds[loop.index0] == 'numeric' %}
     , CAST(src.{{ c | ident }} AS DOUBLE) AS {{ ('o' ~ i) | ident }}
{% else %}
     , CAST(dense_rank() OVER (ORDER BY src.{{ c | ident }}{% if texts[loop.index0] %} COLLATE "C"{% endif %}) AS DOUBLE) AS {{ ('o' ~ i) | ident }}
{% endif %}
{% endfor %}
{% for c in sa %}
     , CAST(src.{{ c | ident }} AS VARCHAR) AS {{ ('s' ~ loop.index) | ident }}
{% endfor %}
FROM {{ source | table }} AS src
{% for c in qi %}
{% set i = loop.index %}
{% if kinds[loop.index0] == 'hierarchy' %}
LEFT JOIN ldiv.hierarchy_node AS {{ ('n' ~ i) | ident }}
  ON {{ ('n' ~ i) | ident }}.hierarchy_id = list_extract($hids, {{ i }})
 AND {{ ('n' ~ i) | ident }}.label = CAST(src.{{ c | ident }} AS VARCHAR)
{% endif %}
{% endfor %}
