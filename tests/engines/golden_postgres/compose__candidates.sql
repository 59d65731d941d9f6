DROP TABLE IF EXISTS "pg_temp"."wk compose candidates's";
/* purpose: what one release leaves a target: for every target vector, the union of the SA values of the classes covering it */
/* params: none */
/* returns: creates target(pid, sa) */
/* ref: docs/decisions/0005-composition-check.md (the attacker's union of the covering classes' SA values, per release) */
CREATE TABLE "pg_temp"."wk compose candidates's" AS
SELECT DISTINCT
  pc.pid,
  cv.sa
FROM "pg_temp"."wk compose step1's" AS pc
JOIN "pg_temp"."wk compose values's" AS cv
  ON cv.cid = pc.cid;
ANALYZE "pg_temp"."wk compose candidates's"
