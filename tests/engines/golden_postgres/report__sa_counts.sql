/* purpose: the SA distribution of the source against a release (PostgreSQL: a FULL JOIN needs an equality, so NULL is matched by a flag) */
/* params: none */
/* returns: value (text, NULL for NULL), source_rows, release_rows (ordered by source_rows descending, then value in the bytes' order, COLLATE "C", on every engine) */
/* ref: the DuckDB template sa_counts.sql */
WITH src AS (
  SELECT
    CAST("ünï" AS TEXT) AS value,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY
    1
), rel AS (
  SELECT
    CAST("ünï" AS TEXT) AS value,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY
    1
)
SELECT
  COALESCE(src.value, rel.value) AS value,
  COALESCE(src.n, 0) AS source_rows,
  COALESCE(rel.n, 0) AS release_rows
FROM src
FULL OUTER JOIN rel
  ON (
    src.value IS NULL
  ) = (
    rel.value IS NULL
  )
  AND COALESCE(src.value, '') = COALESCE(rel.value, '')
ORDER BY
  source_rows DESC NULLS LAST,
  release_rows DESC NULLS LAST,
  COALESCE(src.value, rel.value) COLLATE "C"
