/* purpose: per target vector and word of SA values, each release's union mask side by side (0 where a release leaves no value of the word) */
/* params: none */
/* returns: creates target(pid, word, m1..mM) */
/* ref: docs/decisions/0005-composition-check.md (the intersection across releases is the AND of the masks) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose membership's" AS
SELECT
  pid,
  word,
  BIT_OR("m1") AS "m1",
  BIT_OR("m2") AS "m2"
FROM (
  SELECT
    pid,
    word,
    mask AS "m1",
    CAST(0 AS BIGINT) AS "m2"
  FROM "temp"."main"."wk compose candidates's"
  UNION ALL
  SELECT
    pid,
    word,
    CAST(0 AS BIGINT) AS "m1",
    mask AS "m2"
  FROM "temp"."main"."wk compose candidates's"
) AS u
GROUP BY
  pid,
  word
