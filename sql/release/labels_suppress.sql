-- purpose: suppression labels per group (TP Definition 1): a QI keeps its value when all rows of the group agree, '*' otherwise
-- params: none
-- hints: many-groups
-- returns: creates target(gid, q1..qd)
-- ref: SPEC §0.5 (Definition 1 of TP; the SA is never changed); min = max with no NULL is 'all rows agree', cheaper than count(DISTINCT)
--      as_text (per QI): compare the values as text — a column that is not a number, whose type PostgreSQL may have
--      no min/max for (boolean, uuid); the label is that text either way
{{ target | create_table }} AS
SELECT asg.gid
{% for c in qi %}
{% if as_text[loop.index0] %}
    , CASE WHEN min(CAST(src.{{ c | ident }} AS VARCHAR)) = max(CAST(src.{{ c | ident }} AS VARCHAR))
                AND count(src.{{ c | ident }}) = count(*)
           THEN min(CAST(src.{{ c | ident }} AS VARCHAR)) ELSE '*' END AS {{ ('q' ~ loop.index) | ident }}
{% else %}
    , CASE WHEN min(src.{{ c | ident }}) = max(src.{{ c | ident }}) AND count(src.{{ c | ident }}) = count(*)
           THEN CAST(min(src.{{ c | ident }}) AS VARCHAR) ELSE '*' END AS {{ ('q' ~ loop.index) | ident }}
{% endif %}
{% endfor %}
FROM {{ assignment | table }} AS asg
JOIN {{ source | table }} AS src ON src.rowid = asg.rid
WHERE NOT asg.deleted
GROUP BY asg.gid
