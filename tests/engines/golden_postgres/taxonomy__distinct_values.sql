/* purpose: distinct non-NULL values of a numeric column with their VARCHAR rendering (the leaves of an interval hierarchy) */
/* params: none */
/* returns: label, value */
/* ref: SPEC §0.4 (numeric attributes: ranges as internal nodes) */
SELECT DISTINCT
  CAST("a""b" AS TEXT) AS label,
  "a""b" AS value
FROM "main"."select"
WHERE
  NOT "a""b" IS NULL
ORDER BY
  value,
  label
