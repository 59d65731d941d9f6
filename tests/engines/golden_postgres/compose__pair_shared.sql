DROP TABLE IF EXISTS "pg_temp"."wk compose pair shared's";
/* purpose: the shared masks (compose/shared.sql) of two releases alone, as releases 1 and 2 */
/* params: none */
/* returns: creates target(word, a1, a2) (words neither of the two shares are absent) */
/* ref: docs/decisions/0005-composition-check.md ("Pairs"); pair (shape): the two releases' positions, 1-based */
CREATE TABLE "pg_temp"."wk compose pair shared's" AS
SELECT
  word,
  "a2" AS "a1",
  "a1" AS "a2"
FROM "pg_temp"."wk compose shared's"
WHERE
  "a2" <> 0 OR "a1" <> 0;
ANALYZE "pg_temp"."wk compose pair shared's"
