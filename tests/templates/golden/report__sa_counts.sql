/* purpose: the SA distribution of the source against a release: rows per SA value in each (NULL = a suppressed SA value in the release); shows the noise and what suppression removed */
/* params: none */
/* returns: value (text, NULL for NULL), source_rows, release_rows (ordered by source_rows descending, then value in the bytes' order, COLLATE "C", on every engine) */
/* ref: SPEC §4 (Decomposition+ noise), §5 (l+ suppression), TP (deleted rows) */
WITH src AS (
  SELECT
    CAST("ünï" AS TEXT) AS value,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY ALL
), rel AS (
  SELECT
    CAST("ünï" AS TEXT) AS value,
    COUNT(*) AS n
  FROM "main"."select"
  GROUP BY ALL
)
SELECT
  COALESCE(src.value, rel.value) AS value,
  COALESCE(src.n, 0) AS source_rows,
  COALESCE(rel.n, 0) AS release_rows
FROM src
FULL OUTER JOIN rel
  ON src.value IS NOT DISTINCT FROM rel.value
ORDER BY
  source_rows DESC,
  release_rows DESC,
  COALESCE(src.value, rel.value) COLLATE "C"
