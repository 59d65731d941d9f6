/* purpose: the SA values of every unit of one release (compose/units.sql) as bit masks per word: a class's own masks, and for a target covered by several classes the union (OR) of theirs */
/* params: none */
/* returns: creates target(uid, word, mask) */
/* ref: docs/decisions/0005-composition-check.md (the attacker's union of the covering classes' SA values, per release) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose unit masks's" AS
SELECT
  cm.cid AS uid,
  cm.word,
  cm.mask
FROM "temp"."main"."wk compose masks's" AS cm
UNION ALL
SELECT
  u.uid,
  cm.word,
  BIT_OR(cm.mask) AS mask
FROM "temp"."main"."wk compose units's" AS u
JOIN "temp"."main"."wk compose step1's" AS pc
  ON pc.pid = u.pid
JOIN "temp"."main"."wk compose masks's" AS cm
  ON cm.cid = pc.cid
WHERE
  u.uid < 0
GROUP BY
  u.uid,
  cm.word
