/* purpose: the targets' values of every QI (as text) with an integer code each, so that the covering join compares integers */
/* params: none */
/* returns: creates target(attr, value, code); attr is the QI's position among the targets' QIs, code numbers its values in the bytes' order from 1 */
/* ref: docs/decisions/0005-composition-check.md; DESIGN §5 (code first, join small integer tables) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk compose codes's" AS
SELECT
  1 AS attr,
  value,
  CAST(ROW_NUMBER() OVER (ORDER BY value COLLATE "C") AS INT) AS code
FROM (
  SELECT DISTINCT
    CAST("it's" AS TEXT) AS value
  FROM "main"."select"
) AS "d1"
UNION ALL
SELECT
  2 AS attr,
  value,
  CAST(ROW_NUMBER() OVER (ORDER BY value COLLATE "C") AS INT) AS code
FROM (
  SELECT DISTINCT
    CAST("a""b" AS TEXT) AS value
  FROM "main"."select"
) AS "d2"
UNION ALL
SELECT
  3 AS attr,
  value,
  CAST(ROW_NUMBER() OVER (ORDER BY value COLLATE "C") AS INT) AS code
FROM (
  SELECT DISTINCT
    CAST("Zip Code" AS TEXT) AS value
  FROM "main"."select"
) AS "d3"
UNION ALL
SELECT
  4 AS attr,
  value,
  CAST(ROW_NUMBER() OVER (ORDER BY value COLLATE "C") AS INT) AS code
FROM (
  SELECT DISTINCT
    CAST("select" AS TEXT) AS value
  FROM "main"."select"
) AS "d4"
