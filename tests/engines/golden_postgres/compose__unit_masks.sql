DROP TABLE IF EXISTS "pg_temp"."wk compose unit masks's";
/* purpose: the SA values of every unit of one release (compose/units.sql) as bit masks per word: a class's own masks, and for a target covered by several classes the union (OR) of theirs */
/* params: none */
/* returns: creates target(uid, word, mask) */
/* ref: docs/decisions/0005-composition-check.md (the attacker's union of the covering classes' SA values, per release) */
CREATE TABLE "pg_temp"."wk compose unit masks's" AS
SELECT
  cm.cid AS uid,
  cm.word,
  cm.mask
FROM "pg_temp"."wk compose masks's" AS cm
UNION ALL
SELECT
  u.uid,
  cm.word,
  BIT_OR(cm.mask) AS mask
FROM "pg_temp"."wk compose units's" AS u
JOIN "pg_temp"."wk compose step1's" AS pc
  ON pc.pid = u.pid
JOIN "pg_temp"."wk compose masks's" AS cm
  ON cm.cid = pc.cid
WHERE
  u.uid < 0
GROUP BY
  u.uid,
  cm.word;
ANALYZE "pg_temp"."wk compose unit masks's"
