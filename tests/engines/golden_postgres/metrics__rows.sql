/* purpose: row-level counts of a release: published rows, rows with at least one '*' QI cell, rows whose SA was suppressed (NULL = "unknown"); with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each */
/* params: none */
/* returns: rows, starred_rows, sa_suppressed_rows */
/* ref: SPEC §0.5 (a row carrying a * is suppressed), §5.3 (vioSA/allSA replace SA values by "unknown") */
SELECT
  CAST(COALESCE(SUM(1), 0) AS BIGINT) AS rows,
  CAST(COALESCE(
    SUM(1) FILTER(WHERE
      CAST("it's" AS TEXT) = '*'
      OR CAST("a""b" AS TEXT) = '*'
      OR CAST("Zip Code" AS TEXT) = '*'
      OR CAST("select" AS TEXT) = '*'),
    0
  ) AS BIGINT) AS starred_rows,
  CAST(COALESCE(SUM(1) FILTER(WHERE
    "ünï" IS NULL), 0) AS BIGINT) AS sa_suppressed_rows
FROM "main"."rel'ease ""x"""
