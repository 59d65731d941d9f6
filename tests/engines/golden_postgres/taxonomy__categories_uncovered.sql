/* purpose: the non-NULL values of an SA column that have no stored sensitivity category: the first 10 in the bytes' order (COLLATE "C": the same values named on every engine), with how many there are in all */
/* params: table_name, column_name */
/* returns: v, n_rows (rows carrying v), total (distinct uncovered values) */
/* ref: SPEC §3.1 (every SA value belongs to one category); DESIGN §6 (name the missing value) */
SELECT
  v,
  n_rows,
  total
FROM (
  SELECT
    CAST(src."ünï" AS TEXT) AS v,
    COUNT(*) AS n_rows,
    COUNT(*) OVER () AS total
  FROM "main"."select" AS src
  WHERE
    NOT src."ünï" IS NULL
    AND NOT EXISTS(
      SELECT
        1
      FROM ldiv.sa_category AS cat
      WHERE
        cat.table_name = (
          CAST(%(table_name)s AS TEXT)
        )
        AND cat.column_name = (
          CAST(%(column_name)s AS TEXT)
        )
        AND cat.value = CAST(src."ünï" AS TEXT)
    )
  GROUP BY
    1
) AS ldiv_sq0
ORDER BY
  v COLLATE "C"
LIMIT 10
