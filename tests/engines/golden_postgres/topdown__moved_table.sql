DROP TABLE IF EXISTS "pg_temp"."wk td moved 2's";
/* purpose: (l,alpha) top-down: the empty table of rows repair moved from a good child to its parent (they override the child's route) */
/* params: none */
/* returns: creates target(rid, dest), filled by the controller */
/* ref: SPEC §3.3 repair(P, good) [D] */
CREATE TABLE "pg_temp"."wk td moved 2's" (
  rid BIGINT NOT NULL,
  dest BIGINT NOT NULL
)
