/* purpose: the empty assignment work table BSGI fills with its classes (one row per source row) */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: ldiv_db/algorithms/base.py (the Partitioning contract); BSGI never deletes rows (SPEC §2.2 Incorporate) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk bsgi assignment's" (
  rid BIGINT,
  gid BIGINT,
  deleted BOOLEAN,
  sa_suppressed BOOLEAN
)
