/* purpose: the targets (compose/keys.sql) as two releases alone see them: the presence of the pair's releases as releases 1 and 2, the rows counted per distinct pair */
/* params: none */
/* returns: creates target(v1..vk, present, n) */
/* ref: docs/decisions/0005-composition-check.md ("Pairs"); pair (shape): the two releases' positions (1-based) in keys.sql's present text */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose pair keys's" AS
SELECT
  "v1",
  "v2",
  "v3",
  "v4",
  CAST(SUBSTRING(present, 2, 1) || SUBSTRING(present, 1, 1) AS TEXT) AS present,
  CAST(SUM(n) AS BIGINT) AS n
FROM "temp"."main"."wk compose keys's"
GROUP BY ALL
