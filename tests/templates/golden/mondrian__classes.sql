/* purpose: the empty table of Mondrian's final class per QI vector, filled from the partitioning */
/* params: none */
/* returns: creates target(vid, gid) */
/* ref: LeFevre et al. ICDE 2006 */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk mondrian classes's" (
  vid BIGINT,
  gid BIGINT
)
