DROP TABLE IF EXISTS "pg_temp"."wk hilbert groups's";
/* purpose: an empty assignment table that receives the Hilbert groups computed in Python (rid, gid); nothing is deleted or SA-suppressed */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) with deleted and sa_suppressed defaulting to false */
/* ref: SPEC §1.12(c) (the groups are published with Definition 1); ldiv_db.algorithms.base (the assignment contract) */
CREATE TABLE "pg_temp"."wk hilbert groups's" (
  rid BIGINT NOT NULL,
  gid BIGINT NOT NULL,
  deleted BOOLEAN NOT NULL DEFAULT FALSE,
  sa_suppressed BOOLEAN NOT NULL DEFAULT FALSE
)
