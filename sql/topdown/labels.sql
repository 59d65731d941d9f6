-- purpose: (l,alpha) top-down labels per row: every QI value replaced by its ancestor at its output node's level, with the node's group id
-- params: hids
-- returns: creates target(rid, gid, q1..qd, a1); a NULL QI value (with --null-as-value: its own child of the root, which the hierarchy has no node for) is published as the root
-- ref: SPEC §3.3 (each node is published at its generalized values); SPEC §0.4
{{ target | create_table }} AS
SELECT f.rid, nd.gid
{% for c in qi %}
    , CASE WHEN src.{{ c | ident }} IS NULL THEN rt{{ loop.index }}.label ELSE lv{{ loop.index }}.label END AS {{ ('q' ~ loop.index) | ident }}
{% endfor %}
    , src.{{ sa | ident }} AS a1
FROM {{ final | table }} AS f
JOIN {{ nodes | table }} AS nd ON nd.node = f.node
JOIN {{ source | table }} AS src ON src.rowid = f.rid
{% for c in qi %}
LEFT JOIN ldiv.hierarchy_level AS lv{{ loop.index }}
  ON lv{{ loop.index }}.hierarchy_id = list_extract($hids, {{ loop.index }})
 AND lv{{ loop.index }}.level = nd.{{ ('lv' ~ loop.index) | ident }}
 AND lv{{ loop.index }}.leaf = CAST(src.{{ c | ident }} AS VARCHAR)
LEFT JOIN ldiv.hierarchy_node AS rt{{ loop.index }}
  ON rt{{ loop.index }}.hierarchy_id = list_extract($hids, {{ loop.index }}) AND rt{{ loop.index }}.node_id = 0
{% endfor %}
