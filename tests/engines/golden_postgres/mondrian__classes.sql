DROP TABLE IF EXISTS "pg_temp"."wk mondrian classes's";
/* purpose: the empty table of Mondrian's final class per QI vector (its ordinals), filled from the partitioning */
/* params: none */
/* returns: creates target(o1..od DOUBLE, gid BIGINT) */
/* ref: LeFevre et al. ICDE 2006 */
CREATE TABLE "pg_temp"."wk mondrian classes's" (
  "o1" DOUBLE PRECISION,
  "o2" DOUBLE PRECISION,
  "o3" DOUBLE PRECISION,
  "o4" DOUBLE PRECISION,
  gid BIGINT
)
