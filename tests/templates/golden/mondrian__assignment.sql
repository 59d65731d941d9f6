/* purpose: Mondrian's assignment: every row gets the class of its QI vector */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: ldiv_db/algorithms/base.py (the Partitioning contract); LeFevre et al. ICDE 2006 (strict partitioning) */
/*      the rows meet their class on the vector's ordinals, none NULL here (a NULL ordinal stops the run before: the */
/*      missing-value error); plain equality, as the vectors' GROUP BY matched them */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk mondrian assignment's" AS
SELECT
  r.rid,
  c.gid,
  FALSE AS deleted,
  FALSE AS sa_suppressed
FROM "temp"."main"."wk mondrian rows's" AS r
JOIN "temp"."main"."wk mondrian classes's" AS c
  ON c."o1" = r."o1" AND c."o2" = r."o2" AND c."o3" = r."o3" AND c."o4" = r."o4"
