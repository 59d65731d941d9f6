DROP TABLE IF EXISTS "pg_temp"."wk td assignment's";
/* purpose: (l,alpha) top-down assignment: every row in its output node's group; nothing is deleted */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: SPEC §3.3 (O covers every row once) */
CREATE TABLE "pg_temp"."wk td assignment's" AS
SELECT
  rid,
  gid,
  FALSE AS deleted,
  FALSE AS sa_suppressed
FROM "pg_temp"."wk td labels's";
ANALYZE "pg_temp"."wk td assignment's"
