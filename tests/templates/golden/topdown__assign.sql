/* purpose: top-down assignment: every row in its output node's group; nothing is deleted */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: SPEC §3.3 (O covers every row once) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk td assignment's" AS
SELECT
  f.rid,
  nd.gid,
  FALSE AS deleted,
  FALSE AS sa_suppressed
FROM "temp"."main"."wk td final's" AS f
JOIN "temp"."main"."wk td nodes's" AS nd
  ON nd.node = f.node
