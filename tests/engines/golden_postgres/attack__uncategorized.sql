/* purpose: similarity attack: the SA values of the table that have no sensitivity category (the controller refuses them), with their row counts */
/* params: none */
/* returns: v, n (ordered by v) */
/* ref: SPEC §3.1 (every SA value belongs to one category) */
SELECT
  CAST(src."ünï" AS TEXT) AS v,
  COUNT(*) AS n
FROM "main"."select" AS src
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "pg_temp"."wk attack categories's" AS cat
    WHERE
      cat.v IS NOT DISTINCT FROM CAST(src."ünï" AS TEXT)
  )
GROUP BY
  1
ORDER BY
  v
