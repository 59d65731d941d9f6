DROP TABLE IF EXISTS "pg_temp"."wk compose pair keys's";
/* purpose: the targets (compose/keys.sql) as two releases alone see them: the presence of the pair's releases as bits 1 and 2, the rows counted per distinct pair */
/* params: none */
/* returns: creates target(v1..vk, present, n) */
/* ref: docs/decisions/0005-composition-check.md ("Pairs"); bits (shape): the two releases' bits in keys.sql's presence mask */
CREATE TABLE "pg_temp"."wk compose pair keys's" AS
SELECT
  "v1",
  "v2",
  "v3",
  "v4",
  CASE WHEN (
    present & 2
  ) <> 0 THEN 1 ELSE 0 END + CASE WHEN (
    present & 1
  ) <> 0 THEN 2 ELSE 0 END AS present,
  CAST(SUM(n) AS BIGINT) AS n
FROM "pg_temp"."wk compose keys's"
GROUP BY
  1,
  2,
  3,
  4,
  5;
ANALYZE "pg_temp"."wk compose pair keys's"
