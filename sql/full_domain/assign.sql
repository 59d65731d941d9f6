-- purpose: full-domain assignment: each row joins the group of its generalized QI vector; rows of groups the model rejects are deleted (suppressed)
-- params: none
-- returns: creates target(rid, gid, deleted, sa_suppressed)
-- ref: SPEC §0.4; ARX-style record suppression of violating equivalence classes
{{ target | create_table }} AS
WITH g AS (
    SELECT DISTINCT gid{% for c in qi %}, {{ ('k' ~ loop.index) | ident }}{% endfor %} FROM {{ hist | table }}
)
SELECT lab.rid, g.gid, NOT v.ok AS deleted, false AS sa_suppressed
FROM {{ labels | table }} AS lab
JOIN g ON {% for c in qi %}g.{{ ('k' ~ loop.index) | ident }} IS NOT DISTINCT FROM lab.{{ ('q' ~ loop.index) | ident }}{% if not loop.last %} AND {% endif %}{% endfor %}

JOIN {{ verdict | table }} AS v ON v.gid = g.gid
