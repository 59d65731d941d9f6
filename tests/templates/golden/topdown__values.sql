/* purpose: top-down specialization: per column it reads (QIs 1..d, the SA as d + 1) its distinct values as text, numbered in order of first appearance (row id order) */
/* params: none */
/* returns: creates target(col, code, value): code 0, 1, ... per column; NULL is no value here (topdown/rows.sql gives it the code after the column's last) */
/* ref: SPEC §3.3 (every row starts at the root); SPEC §0.4 (leaves are the values as text); the rows cross into Python as these codes, not as text (one int per cell) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk td values 2's" AS
SELECT
  1 AS col,
  CAST(ROW_NUMBER() OVER (ORDER BY first_rid) - 1 AS BIGINT) AS code,
  value
FROM (
  SELECT
    CAST(src."it's" AS TEXT) AS value,
    MIN(src.rowid) AS first_rid
  FROM "main"."select" AS src
  WHERE
    NOT src."it's" IS NULL
  GROUP BY
    CAST(src."it's" AS TEXT)
) AS "d1"
UNION ALL
SELECT
  2 AS col,
  CAST(ROW_NUMBER() OVER (ORDER BY first_rid) - 1 AS BIGINT) AS code,
  value
FROM (
  SELECT
    CAST(src."a""b" AS TEXT) AS value,
    MIN(src.rowid) AS first_rid
  FROM "main"."select" AS src
  WHERE
    NOT src."a""b" IS NULL
  GROUP BY
    CAST(src."a""b" AS TEXT)
) AS "d2"
UNION ALL
SELECT
  3 AS col,
  CAST(ROW_NUMBER() OVER (ORDER BY first_rid) - 1 AS BIGINT) AS code,
  value
FROM (
  SELECT
    CAST(src."Zip Code" AS TEXT) AS value,
    MIN(src.rowid) AS first_rid
  FROM "main"."select" AS src
  WHERE
    NOT src."Zip Code" IS NULL
  GROUP BY
    CAST(src."Zip Code" AS TEXT)
) AS "d3"
UNION ALL
SELECT
  4 AS col,
  CAST(ROW_NUMBER() OVER (ORDER BY first_rid) - 1 AS BIGINT) AS code,
  value
FROM (
  SELECT
    CAST(src."select" AS TEXT) AS value,
    MIN(src.rowid) AS first_rid
  FROM "main"."select" AS src
  WHERE
    NOT src."select" IS NULL
  GROUP BY
    CAST(src."select" AS TEXT)
) AS "d4"
UNION ALL
SELECT
  5 AS col,
  CAST(ROW_NUMBER() OVER (ORDER BY first_rid) - 1 AS BIGINT) AS code,
  value
FROM (
  SELECT
    CAST(src."ünï" AS TEXT) AS value,
    MIN(src.rowid) AS first_rid
  FROM "main"."select" AS src
  WHERE
    NOT src."ünï" IS NULL
  GROUP BY
    CAST(src."ünï" AS TEXT)
) AS "d5"
