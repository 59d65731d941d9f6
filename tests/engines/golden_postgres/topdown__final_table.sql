DROP TABLE IF EXISTS "pg_temp"."wk td final 2's";
/* purpose: (l,alpha) top-down: the empty table of finished rows and their output node */
/* params: none */
/* returns: creates target(rid, node), filled by topdown/finish.sql and topdown/seed_final.sql */
/* ref: SPEC §3.3 (each node of O is one QI-group) */
CREATE TABLE "pg_temp"."wk td final 2's" (
  rid BIGINT NOT NULL,
  node BIGINT NOT NULL
)
