-- purpose: suppression labels per group (TP Definition 1): a QI keeps its value when all rows of the group agree, '*' otherwise
-- params: none
-- returns: creates target(gid, q1..qd)
-- ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed)
{{ target | create_table }} AS
SELECT asg.gid
{% for c in qi %}
    , CASE WHEN count(DISTINCT src.{{ c | ident }}) = 1 AND count(src.{{ c | ident }}) = count(*)
           THEN CAST(any_value(src.{{ c | ident }}) AS VARCHAR) ELSE '*' END AS {{ ('q' ~ loop.index) | ident }}
{% endfor %}
FROM {{ assignment | table }} AS asg
JOIN {{ source | table }} AS src ON src.rowid = asg.rid
WHERE NOT asg.deleted
GROUP BY asg.gid
