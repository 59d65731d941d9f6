DROP TABLE IF EXISTS "pg_temp"."wk compose candidates's";
/* purpose: what one release leaves a target: for every target vector, the union of the SA values of the classes covering it, as bit masks per word */
/* params: none */
/* returns: creates target(pid, word, mask) */
/* ref: docs/decisions/0005-composition-check.md (the attacker's union of the covering classes' SA values, per release) */
CREATE TABLE "pg_temp"."wk compose candidates's" AS
SELECT
  pc.pid,
  cm.word,
  BIT_OR(cm.mask) AS mask
FROM "pg_temp"."wk compose step1's" AS pc
JOIN "pg_temp"."wk compose masks's" AS cm
  ON cm.cid = pc.cid
GROUP BY
  pc.pid,
  cm.word;
ANALYZE "pg_temp"."wk compose candidates's"
