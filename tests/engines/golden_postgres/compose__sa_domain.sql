DROP TABLE IF EXISTS "pg_temp"."wk compose domain's";
/* purpose: the SA values the attacker knows to exist: the source's distinct non-NULL SA values, as text, each a bit of a 62-bit word */
/* params: none */
/* returns: creates target(sa, code, word, bit): code numbers the values from 0 in the bytes' order, word = code div width, bit = 2^(code mod width); width (shape, 1..62, default 62): the values per word (the tests narrow it to spread a small domain over several words) */
/* ref: docs/decisions/0005-composition-check.md (value sets as bit masks per word; a release that tells nothing about a target leaves it every value; a published unknown SA stands for every value) */
CREATE TABLE "pg_temp"."wk compose domain's" AS
WITH d AS (
  SELECT
    sa,
    CAST(ROW_NUMBER() OVER (ORDER BY sa COLLATE "C") - 1 AS BIGINT) AS code
  FROM (
    SELECT DISTINCT
      CAST("ünï" AS TEXT) AS sa
    FROM "main"."select"
    WHERE
      NOT "ünï" IS NULL
  ) AS v
)
SELECT
  sa,
  code,
  CAST(CAST((
    code - code % 62
  ) AS DOUBLE PRECISION) / 62 AS BIGINT) AS word,
  CAST(POWER(2, code % 62) AS BIGINT) AS bit
FROM d;
ANALYZE "pg_temp"."wk compose domain's"
