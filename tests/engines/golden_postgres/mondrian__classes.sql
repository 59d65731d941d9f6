DROP TABLE IF EXISTS "pg_temp"."wk mondrian classes's";
/* purpose: the empty table of Mondrian's final class per QI vector, filled from the partitioning */
/* params: none */
/* returns: creates target(vid, gid) */
/* ref: LeFevre et al. ICDE 2006 */
CREATE TABLE "pg_temp"."wk mondrian classes's" (
  vid BIGINT,
  gid BIGINT
)
