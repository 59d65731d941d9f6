-- purpose: local recoding labels per group: categorical QIs by the LCA in their hierarchy, numeric QIs as 'lo-hi' (or the single value), flat QIs as the value or '*'
-- params: hids
-- returns: creates target(gid, q1..qd)
-- ref: SPEC §0.5 (local recoding / LCA generalization), §0.4 (preorder intervals: the LCA is the deepest node whose subtree covers the group's leaves)
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
span{{ i }} AS (
    SELECT a.gid, min(n.node_id) AS lo, max(n.node_id) AS hi
    FROM a JOIN ldiv.hierarchy_node AS n
      ON n.hierarchy_id = list_extract($hids, {{ i }}) AND n.label = CAST(a.{{ ('c' ~ i) | ident }} AS VARCHAR)
    GROUP BY a.gid
),
lab{{ i }} AS (
    SELECT s.gid, arg_max(n.label, n.depth) AS label
    FROM span{{ i }} AS s JOIN ldiv.hierarchy_node AS n
      ON n.hierarchy_id = list_extract($hids, {{ i }}) AND n.node_id <= s.lo AND n.last_leaf >= s.hi
    GROUP BY s.gid
),
{% elif kinds[loop.index0] == 'numeric' %}
lab{{ i }} AS (
    SELECT gid,
           CASE WHEN min({{ ('c' ~ i) | ident }}) = max({{ ('c' ~ i) | ident }})
                THEN CAST(min({{ ('c' ~ i) | ident }}) AS VARCHAR)
                ELSE CAST(min({{ ('c' ~ i) | ident }}) AS VARCHAR) || '-' || CAST(max({{ ('c' ~ i) | ident }}) AS VARCHAR)
           END AS label
    FROM a GROUP BY gid
),
{% else %}
lab{{ i }} AS (
    SELECT gid,
           CASE WHEN count(DISTINCT {{ ('c' ~ i) | ident }}) = 1 THEN CAST(any_value({{ ('c' ~ i) | ident }}) AS VARCHAR) ELSE '*' END AS label
    FROM a GROUP BY gid
),
{% endif %}
{% endfor %}
groups AS (SELECT DISTINCT gid FROM a)
SELECT groups.gid{% for c in qi %}, lab{{ loop.index }}.label AS {{ ('q' ~ loop.index) | ident }}{% endfor %}

FROM groups
{% for c in qi %}
JOIN lab{{ loop.index }} ON lab{{ loop.index }}.gid = groups.gid
{% endfor %}
