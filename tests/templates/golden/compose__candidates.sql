/* purpose: what one release leaves a target: for every target vector, the union of the SA values of the classes covering it, as bit masks per word */
/* params: none */
/* returns: creates target(pid, word, mask) */
/* ref: docs/decisions/0005-composition-check.md (the attacker's union of the covering classes' SA values, per release) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose candidates's" AS
SELECT
  pc.pid,
  cm.word,
  BIT_OR(cm.mask) AS mask
FROM "temp"."main"."wk compose step1's" AS pc
JOIN "temp"."main"."wk compose masks's" AS cm
  ON cm.cid = pc.cid
GROUP BY
  pc.pid,
  cm.word
