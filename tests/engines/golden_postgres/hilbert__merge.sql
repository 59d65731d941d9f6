DROP TABLE IF EXISTS "pg_temp"."wk tp plus's";
/* purpose: TP+: TP's assignment with the residue's rows moved to the Hilbert groups of the split (rows absent from the split keep their group) */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: SPEC §1.12 (TP+ = TP, then Hilbert on R; the star-free QI-groups stay as they are) */
CREATE TABLE "pg_temp"."wk tp plus's" AS
SELECT
  b.rid,
  COALESCE(s.gid, b.gid) AS gid,
  b.deleted,
  b.sa_suppressed
FROM "pg_temp"."wk tp assignment's" AS b
LEFT JOIN "pg_temp"."wk hilbert split's" AS s
  ON s.rid = b.rid;
ANALYZE "pg_temp"."wk tp plus's"
