DROP TABLE IF EXISTS "pg_temp"."wk compose pair keys's";
/* purpose: the targets (compose/keys.sql) as two releases alone see them: the presence of the pair's releases as releases 1 and 2, the rows counted per distinct pair */
/* params: none */
/* returns: creates target(v1..vk, present, n) */
/* ref: docs/decisions/0005-composition-check.md ("Pairs"); pair (shape): the two releases' positions (1-based) in keys.sql's present text */
CREATE TABLE "pg_temp"."wk compose pair keys's" AS
SELECT
  "v1",
  "v2",
  "v3",
  "v4",
  CAST(SUBSTRING(present FROM 2 FOR 1) || SUBSTRING(present FROM 1 FOR 1) AS TEXT) AS present,
  CAST(SUM(n) AS BIGINT) AS n
FROM "pg_temp"."wk compose keys's"
GROUP BY
  1,
  2,
  3,
  4,
  5;
ANALYZE "pg_temp"."wk compose pair keys's"
