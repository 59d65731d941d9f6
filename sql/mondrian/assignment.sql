-- purpose: Mondrian's assignment: every row gets the class of its QI vector
-- params: none
-- returns: creates target(rid, gid, deleted, sa_suppressed)
-- ref: ldiv_db/algorithms/base.py (the Partitioning contract); LeFevre et al. ICDE 2006 (strict partitioning)
--      the rows meet their class on the vector's ordinals, none NULL here (a NULL ordinal stops the run before: the
--      missing-value error); plain equality, as the vectors' GROUP BY matched them
{{ target | create_table }} AS
SELECT r.rid, c.gid, false AS deleted, false AS sa_suppressed
FROM {{ rows | table }} AS r
JOIN {{ classes | table }} AS c
  ON {% for o in ords %}{% if not loop.first %}
 AND {% endif %}c.{{ o | ident }} = r.{{ o | ident }}{% endfor %}

