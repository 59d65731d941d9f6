-- purpose: write the published table: QI labels as text, SA as published (NULL where suppressed), the group id; deleted rows left out
-- params: none
-- returns: creates output(<QI columns>, <SA columns>, <kept columns>, <group column>) ordered by group, then within a group by a hash of the row's published values
-- ref: DESIGN §6 (outputs in one transaction; the published table carries no source row ids, and its order nothing of the source's: rows in the source's order within a group would let whoever knows that order, e.g. a source sorted by name or admission date, tell a group's rows apart, which l-diversity assumes nobody can)
CREATE TABLE {{ output | table }} AS
SELECT
{% for c in qi %}
    lab.{{ ('q' ~ loop.index) | ident }} AS {{ c | ident }},
{% endfor %}
{% for c in sa %}
    CASE WHEN asg.sa_suppressed THEN NULL ELSE src.{{ c | ident }} END AS {{ c | ident }},
{% endfor %}
{% for c in keep %}
    src.{{ c | ident }} AS {{ c | ident }},
{% endfor %}
    asg.gid AS {{ group_column | ident }}
FROM {{ assignment | table }} AS asg
JOIN {{ source | table }} AS src ON src.rowid = asg.rid
JOIN {{ labels | table }} AS lab ON lab.{% if labels_by == 'rid' %}rid = asg.rid{% else %}gid = asg.gid{% endif %}

WHERE NOT asg.deleted
ORDER BY
    asg.gid,
    hash(
{% for c in qi %}
        lab.{{ ('q' ~ loop.index) | ident }},
{% endfor %}
{% for c in sa %}
        CASE WHEN asg.sa_suppressed THEN NULL ELSE src.{{ c | ident }} END,
{% endfor %}
{% for c in keep %}
        src.{{ c | ident }},
{% endfor %}
        'ldiv-order'
    )
