DROP TABLE IF EXISTS "pg_temp"."wk compose driving's";
/* purpose: per combination of units (compose/combos.sql), the release whose unit's words compose/membership.sql reads: of the releases holding the rows without a shared mask, the one whose unit has the fewest words (the first on ties); none where every release holding the rows has a shared mask */
/* params: none */
/* returns: creates target(cmb, present, u1..uM, w1..wM, fewest, first): w<r> the words of release r's unit (0: none), first the chosen release's position (9223372036854775807: none) */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"; the chosen release is named by two least() over the releases, so the statement grows with the releases, not their pairs; "More than 62 releases": a table of its own, which compose/membership.sql reads once per release). noshared (shape): per release, true when it has no shared mask; present is keys.sql's text, one character per release */
CREATE TABLE "pg_temp"."wk compose driving's" AS
WITH "n1" AS (
  SELECT
    uid,
    COUNT(*) AS w
  FROM "pg_temp"."wk compose unit masks's"
  GROUP BY
    uid
), "n2" AS (
  SELECT
    uid,
    COUNT(*) AS w
  FROM "pg_temp"."wk compose unit masks's"
  GROUP BY
    uid
), q AS (
  SELECT
    cu.*,
    COALESCE("c1".w, 0) AS "w1",
    COALESCE("c2".w, 0) AS "w2"
  FROM (
    SELECT DISTINCT
      cmb,
      present,
      "u1",
      "u2"
    FROM "pg_temp"."wk compose combos's"
  ) AS cu
  LEFT JOIN "n1" AS "c1"
    ON "c1".uid = cu."u1"
  LEFT JOIN "n2" AS "c2"
    ON "c2".uid = cu."u2"
), m AS (
  SELECT
    q.*,
    LEAST(
      9223372036854775807,
      CASE
        WHEN SUBSTRING(present FROM 1 FOR 1) = '1'
        THEN "w1"
        ELSE 9223372036854775807
      END
    ) AS fewest
  FROM q
)
SELECT
  m.*,
  LEAST(
    9223372036854775807,
    CASE
      WHEN SUBSTRING(present FROM 1 FOR 1) = '1' AND "w1" = fewest
      THEN 1
      ELSE 9223372036854775807
    END
  ) AS "first"
FROM m;
ANALYZE "pg_temp"."wk compose driving's"
