/* purpose: similarity attack: the SA values of the table that have no sensitivity category (the controller refuses them), with their row counts */
/* params: none */
/* returns: v, n (ordered by v in the bytes' order, COLLATE "C", on every engine) */
/* ref: SPEC §3.1 (every SA value belongs to one category) */
SELECT
  v,
  n
FROM (
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
        (
          cat.v IS NULL
        ) = (
          (
            CAST(src."ünï" AS TEXT)
          ) IS NULL
        )
        AND COALESCE(CAST(cat.v AS TEXT), '') = COALESCE(CAST((
          CAST(src."ünï" AS TEXT)
        ) AS TEXT), '')
    )
  GROUP BY
    1
) AS uncategorized
ORDER BY
  v COLLATE "C"
