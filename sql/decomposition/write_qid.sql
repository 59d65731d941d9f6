-- purpose: write the QID-table: the QI and non-sensitive columns of every published row, unchanged, with the SA-group id (earlier releases' rows first, copied unchanged)
-- params: none
-- returns: creates output(<QI columns>, <kept columns>, <group column>) ordered by group and values
-- ref: SPEC §4.1 (QID-table); DESIGN §6 (no source row ids in a published table)
CREATE TABLE {{ output | table }} AS
SELECT * FROM (
{% if previous %}
    SELECT * FROM {{ previous | table }}
    UNION ALL
{% endif %}
    SELECT {% for c in columns %}p.{{ slots[loop.index0] | ident }} AS {{ c | ident }}, {% endfor %}a.gid AS {{ group_column | ident }}
    FROM {{ pool | table }} AS p
    JOIN {{ assignment | table }} AS a ON a.rk = p.rk
)
ORDER BY {{ group_column | ident }}{% for c in columns %}, {{ c | ident }}{% endfor %}
