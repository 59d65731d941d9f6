DROP TABLE IF EXISTS "pg_temp"."wk compose units's";
/* purpose: what one release leaves each target, by reference: the target's covering class when it has one, else a union of its own */
/* params: none */
/* returns: creates target(pid, uid): uid = the covering class's cid (≥ 1) when exactly one class covers the target vector, else -pid (the union of its covering classes' masks, compose/unit_masks.sql) */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": a class's values are kept once, not copied to every target it covers) */
CREATE TABLE "pg_temp"."wk compose units's" AS
SELECT
  pid,
  CASE WHEN COUNT(*) = 1 THEN MIN(cid) ELSE -pid END AS uid
FROM "pg_temp"."wk compose step1's"
GROUP BY
  pid;
ANALYZE "pg_temp"."wk compose units's"
