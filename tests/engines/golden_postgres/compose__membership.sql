DROP TABLE IF EXISTS "pg_temp"."wk compose membership's";
/* purpose: per target vector and SA value, the releases that leave the value (bit r-1 for the r-th release) */
/* params: none */
/* returns: creates target(pid, sa, mask) */
/* ref: docs/decisions/0005-composition-check.md (the intersection across releases is read from the masks) */
CREATE TABLE "pg_temp"."wk compose membership's" AS
SELECT
  pid,
  sa,
  CAST(SUM(bit) AS BIGINT) AS mask
FROM (
  SELECT
    pid,
    sa,
    1 AS bit
  FROM "pg_temp"."wk compose candidates's"
  UNION ALL
  SELECT
    pid,
    sa,
    2 AS bit
  FROM "pg_temp"."wk compose candidates's"
) AS u
GROUP BY
  pid,
  sa;
ANALYZE "pg_temp"."wk compose membership's"
