/* purpose: row-level counts of a release: published rows, rows with at least one '*' QI cell, rows whose SA was suppressed (NULL = "unknown"), SA cells published as unknown, rows with any suppressed cell (a '*' or an unknown SA); and in the same statement its class-size histogram (classes: rows with equal keys, ldiv_db/core/classes.py's class_keys); with counted, the release is a release aggregate (release/aggregate.sql) whose rows stand for n rows each */
/* params: none */
/* returns: rows, starred_rows, sa_suppressed_rows, sa_unknown_cells, rows_with_suppressed_cells, size, classes: one row per distinct class size (ascending), the counts repeated on each, or one row with size NULL when the release has no class; with pairs (keys gid, q1..qd of a release aggregate), also groups and label_vectors on each row: the classes' distinct group ids and distinct label vectors, release/same_partition.sql's figures (its pairs are the classes) */
/* ref: SPEC §0.5 (a row carrying a * is suppressed), §5.3 (vioSA/allSA replace SA values by "unknown"); docs/decisions/0011 (the words); the histogram is release/class_sizes.sql's (one scan statement fewer: issue 57 item 5, decision 0032) */
WITH per_class AS (
  SELECT
    "group",
    "it's",
    "a""b",
    "Zip Code",
    "select",
    COUNT(*) AS size
  FROM "main"."rel'ease ""x"""
  GROUP BY
    "group",
    "it's",
    "a""b",
    "Zip Code",
    "select"
), hist AS (
  SELECT
    size,
    COUNT(*) AS classes
  FROM per_class
  GROUP BY
    size
), parts AS (
  SELECT
    COUNT(DISTINCT "group") AS groups,
    (
      SELECT
        COUNT(*)
      FROM (
        SELECT DISTINCT
          "it's",
          "a""b",
          "Zip Code",
          "select"
        FROM per_class
      ) AS v
    ) AS label_vectors
  FROM per_class
), counts AS (
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
      "ünï" IS NULL), 0) AS BIGINT) AS sa_suppressed_rows,
    CAST(COALESCE(SUM(1 * (
      CASE WHEN "ünï" IS NULL THEN 1 ELSE 0 END
    )), 0) AS BIGINT) AS sa_unknown_cells,
    CAST(COALESCE(
      SUM(1) FILTER(WHERE
        CAST("it's" AS TEXT) = '*'
        OR CAST("a""b" AS TEXT) = '*'
        OR CAST("Zip Code" AS TEXT) = '*'
        OR CAST("select" AS TEXT) = '*'
        OR "ünï" IS NULL
        OR FALSE),
      0
    ) AS BIGINT) AS rows_with_suppressed_cells
  FROM "main"."rel'ease ""x"""
)
SELECT
  counts.*,
  hist.size,
  hist.classes,
  parts.groups,
  parts.label_vectors
FROM counts
CROSS JOIN parts
LEFT JOIN hist
  ON TRUE
ORDER BY
  hist.size
