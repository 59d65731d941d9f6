/* purpose: row-level counts of a release: published rows, rows with at least one '*' QI cell, rows whose SA was suppressed (NULL = "unknown") */
/* params: none */
/* returns: rows, starred_rows, sa_suppressed_rows */
/* ref: SPEC §0.5 (a row carrying a * is suppressed), §5.3 (vioSA/allSA replace SA values by "unknown") */
SELECT
  COUNT(*) AS rows,
  COUNT(*) FILTER(WHERE
    CAST("it's" AS TEXT) = '*'
    OR CAST("a""b" AS TEXT) = '*'
    OR CAST("Zip Code" AS TEXT) = '*'
    OR CAST("select" AS TEXT) = '*') AS starred_rows,
  COUNT(*) FILTER(WHERE
    "ünï" IS NULL) AS sa_suppressed_rows
FROM "main"."rel'ease ""x"""
