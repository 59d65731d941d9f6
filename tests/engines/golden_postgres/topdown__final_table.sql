DROP TABLE IF EXISTS "pg_temp"."wk td final 2's";
/* purpose: top-down: the empty table of every row and its output node */
/* params: none */
/* returns: creates target(rid, node), filled by the controller */
/* ref: SPEC §3.3 (each node of O is one QI-group) */
CREATE TABLE "pg_temp"."wk td final 2's" (
  rid BIGINT NOT NULL,
  node BIGINT NOT NULL
)
