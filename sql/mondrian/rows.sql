-- purpose: Mondrian's working rows: per row the id of its QI vector and one ordinal per QI (numeric: the value; hierarchy: the leaf's preorder node id; flat: dense rank of the value), and its SA values as text
-- params: hids
-- returns: creates target(rid, vid, o1..od DOUBLE, s1..sk VARCHAR); vid numbers the distinct QI vectors 0..; a hierarchy QI whose value is not a leaf gets o<i> NULL
-- ref: LeFevre, DeWitt, Ramakrishnan, ICDE 2006 (Mondrian; strict partitioning never separates equal QI vectors); SPEC §0.4 (preorder ids order a hierarchy's leaves left to right)
--      vid: the distinct vectors are numbered (as a window over every row would number them), then joined back on a
--      NULL-safe key that every engine can hash (a non-leaf's NULL ordinal is one more value): an aggregate and a join cost
--      less than a sort of every row (bench/results/history.md, "One million rows", Round 2)
--      texts (per QI): a character column, whose values are ranked in the bytes' order (COLLATE "C"), the order of every engine, not the database's collation (a PostgreSQL database in an ICU or libc locale orders 'Banana' before 'apple' differently, and its release would differ from DuckDB's)
{{ target | create_table }} AS
WITH ordinals AS (
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
), vectors AS (
    SELECT {{ ords | idents }}, dense_rank() OVER (ORDER BY {{ ords | idents }}) - 1 AS vid
    FROM ordinals
    GROUP BY {{ ords | idents }}
)
SELECT o.rid, v.vid{% for o in ords %}, o.{{ o | ident }}{% endfor %}{% for s in sas %}, o.{{ s | ident }}{% endfor %}

FROM ordinals AS o
JOIN vectors AS v
  ON {% for o in ords %}{% if not loop.first %}
 AND {% endif %}coalesce(v.{{ o | ident }}, 0) = coalesce(o.{{ o | ident }}, 0) AND (v.{{ o | ident }} IS NULL) = (o.{{ o | ident }} IS NULL){% endfor %}

