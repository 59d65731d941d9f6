DROP TABLE IF EXISTS "pg_temp"."wk compose driving's";
/* purpose: per combination of units (compose/combos.sql), the release whose unit's words compose/membership.sql reads: of the releases holding the rows without a shared mask, the one whose unit has the fewest words (the first on ties); none where every release holding the rows has a shared mask */
/* params: none */
/* returns: creates target(cmb, present, u1..uM, w1..wM, fewest, first): w<r> the words of release r's unit (0: none), first the chosen release's position (9223372036854775807: none) */
/* ref: docs/decisions/0005-composition-check.md ("A class that covers many targets"; the chosen release is named by two least() over the releases, so the statement grows with the releases, not their pairs; "More than 62 releases": a table of its own, which compose/membership.sql reads once per release; the units' word counts are stacked and spread over the columns by one grouping, not joined once per release). noshared (shape): per release, true when it has no shared mask; present is keys.sql's text, one character per release */
CREATE TABLE "pg_temp"."wk compose driving's" AS
WITH n AS (
  SELECT
    1 AS r,
    uid,
    COUNT(*) AS w
  FROM "pg_temp"."wk compose unit masks's"
  GROUP BY
    uid
  UNION ALL
  SELECT
    2 AS r,
    uid,
    COUNT(*) AS w
  FROM "pg_temp"."wk compose unit masks's"
  GROUP BY
    uid
), used AS (
  SELECT DISTINCT
    cmb,
    1 AS r,
    "u1" AS uid
  FROM "pg_temp"."wk compose combos's"
  WHERE
    "u1" <> 0
  UNION ALL
  SELECT DISTINCT
    cmb,
    2 AS r,
    "u2" AS uid
  FROM "pg_temp"."wk compose combos's"
  WHERE
    "u2" <> 0
), ws AS (
  SELECT
    x.cmb,
    MAX(CASE WHEN x.r = 1 THEN n.w END) AS "w1",
    MAX(CASE WHEN x.r = 2 THEN n.w END) AS "w2"
  FROM used AS x
  JOIN n
    ON n.r = x.r AND n.uid = x.uid
  GROUP BY
    x.cmb
), q AS (
  SELECT
    cu.*,
    COALESCE(ws."w1", 0) AS "w1",
    COALESCE(ws."w2", 0) AS "w2"
  FROM (
    SELECT DISTINCT
      cmb,
      present,
      "u1",
      "u2"
    FROM "pg_temp"."wk compose combos's"
  ) AS cu
  LEFT JOIN ws
    ON ws.cmb = cu.cmb
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
