DROP TABLE IF EXISTS "pg_temp"."wk bsgi assignment's";
/* purpose: the empty assignment work table BSGI fills with its classes (one row per source row) */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: ldiv_db/algorithms/base.py (the Partitioning contract); BSGI never deletes rows (SPEC §2.2 Incorporate) */
CREATE TABLE "pg_temp"."wk bsgi assignment's" (
  rid BIGINT,
  gid BIGINT,
  deleted BOOLEAN,
  sa_suppressed BOOLEAN
)
