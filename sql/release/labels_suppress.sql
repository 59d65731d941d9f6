-- purpose: suppression labels per group (TP Definition 1): a QI keeps its value when all rows of the group agree, '*' otherwise
-- params: none
-- hints: many-groups
-- returns: creates target(gid, q1..qd)
-- ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed); min = max with no NULL is 'all rows agree', cheaper than count(DISTINCT)
{{ target | create_table }} AS
SELECT asg.gid
{% for c in qi %}
    , CASE WHEN min(src.{{ c | ident }}) = max(src.{{ c | ident }}) AND count(src.{{ c | ident }}) = count(*)
           THEN CAST(min(src.{{ c | ident }}) AS VARCHAR) ELSE '*' END AS {{ ('q' ~ loop.index) | ident }}
{% endfor %}
FROM {{ assignment | table }} AS asg
JOIN {{ source | table }} AS src ON src.rowid = asg.rid
WHERE NOT asg.deleted
GROUP BY asg.gid
