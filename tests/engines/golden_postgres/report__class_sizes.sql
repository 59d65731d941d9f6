/* purpose: class-size histogram of a published table: how many classes (rows with equal keys: the published QI labels, or a group column) have each size */
/* params: none */
/* returns: size, classes (one row per distinct class size, ascending) */
/* ref: SPEC §0.2 (k = the smallest class); re-identification risk of a row = 1/|G| of its class */
WITH per_class AS (
  SELECT
    COUNT(*) AS size
  FROM "main"."select"
  GROUP BY
    "it's",
    "a""b",
    "Zip Code",
    "select"
)
SELECT
  size,
  COUNT(*) AS classes
FROM per_class
GROUP BY
  size
ORDER BY
  size
