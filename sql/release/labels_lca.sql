-- purpose: local recoding labels per group: categorical QIs by the LCA in their hierarchy, numeric QIs as 'lo-hi' (or the single value), flat QIs as the value or '*'
-- params: hids
-- returns: creates target(gid, q1..qd)
-- ref: SPEC §0.5 (local recoding / LCA generalization), §0.4 (preorder intervals: the LCA is the deepest node whose subtree covers the group's leaves). One aggregation over the published rows gives every QI's span per group (a value's preorder node id from a small value → node map); the LCA is then looked up once per distinct span, not per group, in one join for every QI: the deepest
--      ancestor of the span's first leaf (its labels at every level, ldiv.hierarchy_level) whose subtree reaches the last, by
--      equalities (the nodes whose preorder range holds the span, node_id <= lo AND last_leaf >= hi, are those ancestors, but
--      as a join they pair every span with every node of the hierarchy)
{{ target | create_table }} AS
WITH a AS (
    SELECT asg.gid{% for c in qi %}, src.{{ c | ident }} AS {{ ('c' ~ loop.index) | ident }}{% endfor %}

    FROM {{ assignment | table }} AS asg
    JOIN {{ source | table }} AS src ON src.rowid = asg.rid
    WHERE NOT asg.deleted
),
{% for c in qi %}
{% set i = loop.index %}
{% if kinds[loop.index0] == 'hierarchy' %}
map{{ i }} AS (
    SELECT label, node_id FROM ldiv.hierarchy_node WHERE hierarchy_id = list_extract($hids, {{ i }})
),
{% endif %}
{% endfor %}
g AS (
    SELECT a.gid
{% for c in qi %}
{% set i = loop.index %}
{% set col = ('c' ~ i) | ident %}
{% if kinds[loop.index0] == 'hierarchy' %}
        , min(map{{ i }}.node_id) AS {{ ('lo' ~ i) | ident }}, max(map{{ i }}.node_id) AS {{ ('hi' ~ i) | ident }}
{% elif kinds[loop.index0] == 'numeric' %}
        , CASE WHEN min(a.{{ col }}) = max(a.{{ col }})
               THEN CAST(min(a.{{ col }}) AS VARCHAR)
               ELSE CAST(min(a.{{ col }}) AS VARCHAR) || '-' || CAST(max(a.{{ col }}) AS VARCHAR)
          END AS {{ ('q' ~ i) | ident }}
{% else %}
        , CASE WHEN count(DISTINCT a.{{ col }}) = 1 THEN CAST(any_value(a.{{ col }}) AS VARCHAR) ELSE '*' END AS {{ ('q' ~ i) | ident }}
{% endif %}
{% endfor %}
    FROM a
{% for c in qi %}
{% if kinds[loop.index0] == 'hierarchy' %}
    LEFT JOIN map{{ loop.index }} ON map{{ loop.index }}.label = CAST(a.{{ ('c' ~ loop.index) | ident }} AS VARCHAR)
{% endif %}
{% endfor %}
    GROUP BY a.gid
){% if 'hierarchy' in kinds %},
spans AS (
{% set ns = namespace(first=true) %}
{% for c in qi %}
{% if kinds[loop.index0] == 'hierarchy' %}
    {% if not ns.first %}UNION ALL {% endif %}SELECT DISTINCT {{ loop.index }} AS attr, list_extract($hids, {{ loop.index }}) AS hid, {{ ('lo' ~ loop.index) | ident }} AS lo, {{ ('hi' ~ loop.index) | ident }} AS hi FROM g
{% set ns.first = false %}
{% endif %}
{% endfor %}
),
lca AS (
    SELECT s.attr, s.lo, s.hi, arg_max(n.label, n.depth) AS label
    FROM spans AS s
    JOIN ldiv.hierarchy_node AS leaf ON leaf.hierarchy_id = s.hid AND leaf.node_id = s.lo
    JOIN ldiv.hierarchy_level AS up ON up.hierarchy_id = s.hid AND up.leaf = leaf.label
    JOIN ldiv.hierarchy_node AS n ON n.hierarchy_id = s.hid AND n.label = up.label
    WHERE n.last_leaf >= s.hi
    GROUP BY s.attr, s.lo, s.hi
){% endif %}

SELECT g.gid
{% for c in qi %}
{% if kinds[loop.index0] == 'hierarchy' %}
    , {{ ('l' ~ loop.index) | ident }}.label AS {{ ('q' ~ loop.index) | ident }}
{% else %}
    , g.{{ ('q' ~ loop.index) | ident }}
{% endif %}
{% endfor %}
FROM g
{% for c in qi %}
{% if kinds[loop.index0] == 'hierarchy' %}
{% set l = ('l' ~ loop.index) | ident %}
JOIN lca AS {{ l }} ON {{ l }}.attr = {{ loop.index }} AND {{ l }}.lo = g.{{ ('lo' ~ loop.index) | ident }} AND {{ l }}.hi = g.{{ ('hi' ~ loop.index) | ident }}
{% endif %}
{% endfor %}
