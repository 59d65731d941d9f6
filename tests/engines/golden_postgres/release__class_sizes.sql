/* purpose: class-size histogram of a published table: how many classes (rows with equal keys, ldiv_db/core/classes.py's class_keys: the published group column with the QI labels, or the QI labels) have each size; with counted, the table is a release aggregate (release/aggregate.sql) whose rows stand for n rows each */
/* params: none */
/* returns: size, classes (one row per distinct class size, ascending) */
/* ref: DESIGN §6 (the class is the finest partition the published table reveals); SPEC §0.2 (k = the smallest class); re-identification risk of a row = 1/|G| of its class; DM = Σ|G|² */
WITH per_class AS (
  SELECT
    COUNT(*) AS size
  FROM "main"."select"
  GROUP BY
    "group",
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
