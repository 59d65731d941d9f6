-- purpose: BSGI's integer codes per source row: the bucket of the primary SA (values numbered by first appearance), codes of the secondary SAs and of the individual (same numbering), and per QI a code the greedy prices: hierarchy = the leaf's preorder node id, numeric = dense rank of the value (with the value itself in v<i>), flat = dense rank of the value
-- params: hids
-- returns: creates target(rid, b, s2..sk, q1..qd, v<i> for numeric QIs, ind when an individual column is given); a hierarchy QI whose value is not a leaf gets q<i> NULL
-- ref: texts (per QI): a character column, ranked in the bytes' order on every engine (COLLATE "C", see mondrian/rows.sql); SPEC §2.1 (buckets), §0.6 rule 2 (first-appearance order), §0.4 (preorder ids: the LCA of leaves is the LCA of the smallest and largest id), §0.7 (IL per kind), §2.4 (variants)
{{ target | create_table }} AS
WITH src AS (
    SELECT rowid AS rid
{% for c in sa %}
         , {{ c | ident }} AS {{ ('a' ~ loop.index) | ident }}
{% endfor %}
{% for c in qi %}
         , {{ c | ident }} AS {{ ('c' ~ loop.index) | ident }}
{% endfor %}
{% if individual is not none %}
         , {{ individual | ident }} AS ind_value
{% endif %}
    FROM {{ source | table }}
),
{% for c in sa %}
{% set a = 'a' ~ loop.index %}
{{ ('fa' ~ loop.index) | ident }} AS (
    SELECT {{ a | ident }} AS v, row_number() OVER (ORDER BY min(rid)) - 1 AS code
    FROM src GROUP BY {{ a | ident }}
),
{% endfor %}
{% if individual is not none %}
individuals AS (
    SELECT ind_value AS v, row_number() OVER (ORDER BY min(rid)) - 1 AS code
    FROM src GROUP BY ind_value
),
{% endif %}
{% for c in qi %}
{% if kinds[loop.index0] != 'hierarchy' %}
{% set cc = 'c' ~ loop.index %}
{{ ('dom' ~ loop.index) | ident }} AS (
    SELECT {{ cc | ident }} AS v, row_number() OVER (ORDER BY {{ cc | ident }}{% if texts[loop.index0] %} COLLATE "C"{% endif %}) - 1 AS code
    FROM src GROUP BY {{ cc | ident }}
),
{% endif %}
{% endfor %}
joined AS (
    SELECT src.rid
{% for c in sa %}
         , {{ ('fa' ~ loop.index) | ident }}.code AS {{ ('b' if loop.first else 's' ~ loop.index) | ident }}
{% endfor %}
{% for c in qi %}
{% set i = loop.index %}
{% if kinds[loop.index0] == 'hierarchy' %}
         , {{ ('n' ~ i) | ident }}.node_id AS {{ ('q' ~ i) | ident }}
{% else %}
         , {{ ('dom' ~ i) | ident }}.code AS {{ ('q' ~ i) | ident }}
{% endif %}
{% if kinds[loop.index0] == 'numeric' %}
         , CAST(src.{{ ('c' ~ i) | ident }} AS DOUBLE) AS {{ ('v' ~ i) | ident }}
{% endif %}
{% endfor %}
{% if individual is not none %}
         , individuals.code AS ind
{% endif %}
    FROM src
{% for c in sa %}
    JOIN {{ ('fa' ~ loop.index) | ident }} ON {{ ('fa' ~ loop.index) | ident }}.v IS NOT DISTINCT FROM src.{{ ('a' ~ loop.index) | ident }}
{% endfor %}
{% for c in qi %}
{% set i = loop.index %}
{% if kinds[loop.index0] == 'hierarchy' %}
    LEFT JOIN ldiv.hierarchy_node AS {{ ('n' ~ i) | ident }}
      ON {{ ('n' ~ i) | ident }}.hierarchy_id = list_extract($hids, {{ i }})
     AND {{ ('n' ~ i) | ident }}.label = CAST(src.{{ ('c' ~ i) | ident }} AS VARCHAR)
{% else %}
    JOIN {{ ('dom' ~ i) | ident }} ON {{ ('dom' ~ i) | ident }}.v IS NOT DISTINCT FROM src.{{ ('c' ~ i) | ident }}
{% endif %}
{% endfor %}
{% if individual is not none %}
    JOIN individuals ON individuals.v IS NOT DISTINCT FROM src.ind_value
{% endif %}
)
SELECT * FROM joined
