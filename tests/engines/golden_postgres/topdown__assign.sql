DROP TABLE IF EXISTS "pg_temp"."wk td assignment's";
/* purpose: top-down assignment: every row in its output node's group; nothing is deleted */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: SPEC §3.3 (O covers every row once) */
CREATE TABLE "pg_temp"."wk td assignment's" AS
SELECT
  f.rid,
  nd.gid,
  FALSE AS deleted,
  FALSE AS sa_suppressed
FROM "pg_temp"."wk td final's" AS f
JOIN "pg_temp"."wk td nodes's" AS nd
  ON nd.node = f.node;
ANALYZE "pg_temp"."wk td assignment's"
