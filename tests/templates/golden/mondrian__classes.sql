/* purpose: the empty table of Mondrian's final class per QI vector (its ordinals), filled from the partitioning */
/* params: none */
/* returns: creates target(o1..od DOUBLE, gid BIGINT) */
/* ref: LeFevre et al. ICDE 2006 */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk mondrian classes's" (
  "o1" DOUBLE,
  "o2" DOUBLE,
  "o3" DOUBLE,
  "o4" DOUBLE,
  gid BIGINT
)
