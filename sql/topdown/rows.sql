-- purpose: top-down specialization: every row of the source once, in row id order, with its QI values and its SA value as text (the spelling of the hierarchy leaves and of the partition statistics)
-- params: none
-- returns: rid, q1..qd, a1 (NULL stays NULL: with --null-as-value a value of its own)
-- ref: SPEC §3.3 (every row starts at the root); SPEC §0.4 (leaves are the values as text)
SELECT src.rowid AS rid
{% for c in qi %}
    , CAST(src.{{ c | ident }} AS VARCHAR) AS {{ ('q' ~ loop.index) | ident }}
{% endfor %}
    , CAST(src.{{ sa | ident }} AS VARCHAR) AS a1
FROM {{ source | table }} AS src
ORDER BY src.rowid
