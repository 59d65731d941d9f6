-- purpose: (l,alpha) top-down, one round over all active nodes: every row's candidate child, i.e. its value one hierarchy level down on the attribute its node specializes
-- params: hids
-- returns: creates target(rid, node, child, a1); a candidate child is a (node, child) pair; a NULL QI value (with --null-as-value) has the NULL child: NULL is a value of its own, a leaf right below the root
-- ref: SPEC §3.3 (specialize(P): rows of P split by their child value one level down)
{{ target | create_table }} AS
WITH picked AS (
    SELECT act.rid, act.node, act.attr, act.level,
           CASE act.attr
{% for c in qi %}
               WHEN {{ loop.index }} THEN CAST(src.{{ c | ident }} AS VARCHAR)
{% endfor %}
           END AS leaf,
           src.{{ sa | ident }} AS a1
    FROM {{ active | table }} AS act
    JOIN {{ source | table }} AS src ON src.rowid = act.rid
)
SELECT p.rid, p.node, lv.label AS child, p.a1
FROM picked AS p
LEFT JOIN ldiv.hierarchy_level AS lv
  ON lv.hierarchy_id = list_extract($hids, p.attr)
 AND lv.level = p.level
 AND lv.leaf = p.leaf
