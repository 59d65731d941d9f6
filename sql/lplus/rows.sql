-- purpose: l+-Optimize rows: each source row's leaf node per QI (preorder ids of its hierarchy), its SA value and class as text
-- params: hids
-- returns: creates target(rid, l1..ld, s, k); a NULL l_i marks a value missing from the hierarchy (the caller names it)
-- ref: SPEC §5.2 (every QI needs a taxonomy); §0.4 (preorder node ids)
{{ target | create_table }} AS
SELECT src.rowid AS rid
{% for c in qi %}
    , nd{{ loop.index }}.node_id AS {{ ('l' ~ loop.index) | ident }}
{% endfor %}
    , CAST(src.{{ sa | ident }} AS VARCHAR) AS s
    , {% if klass is not none %}CAST(src.{{ klass | ident }} AS VARCHAR){% else %}CAST(NULL AS VARCHAR){% endif %} AS k
FROM {{ source | table }} AS src
{% for c in qi %}
LEFT JOIN ldiv.hierarchy_node AS nd{{ loop.index }}
  ON nd{{ loop.index }}.hierarchy_id = list_extract($hids, {{ loop.index }})
 AND nd{{ loop.index }}.height = 0
 AND nd{{ loop.index }}.label = CAST(src.{{ c | ident }} AS VARCHAR)
{% endfor %}
