/* purpose: top-down specialization: every row of the source once, in row id order, with the codes (topdown/values.sql) of its QI values and of its SA value */
/* params: none */
/* returns: rid, q1..qd, a1 (BIGINT codes; NULL, a value of its own with --null-as-value, is the column's count of values: the code after its last) */
/* ref: SPEC §3.3 (every row starts at the root); SPEC §0.4 (leaves are the values as text) */
WITH ldiv_counts AS (
  SELECT
    col,
    COUNT(*) AS n
  FROM "temp"."main"."wk td values's"
  GROUP BY
    col
)
SELECT
  src.rowid AS rid,
  CAST(COALESCE("v1".code, (
    SELECT
      n
    FROM ldiv_counts
    WHERE
      col = 1
  ), 0) AS BIGINT) AS "q1",
  CAST(COALESCE("v2".code, (
    SELECT
      n
    FROM ldiv_counts
    WHERE
      col = 2
  ), 0) AS BIGINT) AS "q2",
  CAST(COALESCE("v3".code, (
    SELECT
      n
    FROM ldiv_counts
    WHERE
      col = 3
  ), 0) AS BIGINT) AS "q3",
  CAST(COALESCE("v4".code, (
    SELECT
      n
    FROM ldiv_counts
    WHERE
      col = 4
  ), 0) AS BIGINT) AS "q4",
  CAST(COALESCE("v5".code, (
    SELECT
      n
    FROM ldiv_counts
    WHERE
      col = 5
  ), 0) AS BIGINT) AS "a1"
FROM "main"."select" AS src
LEFT JOIN "temp"."main"."wk td values's" AS "v1"
  ON "v1".col = 1 AND "v1".value = CAST(src."it's" AS TEXT)
LEFT JOIN "temp"."main"."wk td values's" AS "v2"
  ON "v2".col = 2 AND "v2".value = CAST(src."a""b" AS TEXT)
LEFT JOIN "temp"."main"."wk td values's" AS "v3"
  ON "v3".col = 3 AND "v3".value = CAST(src."Zip Code" AS TEXT)
LEFT JOIN "temp"."main"."wk td values's" AS "v4"
  ON "v4".col = 4 AND "v4".value = CAST(src."select" AS TEXT)
LEFT JOIN "temp"."main"."wk td values's" AS "v5"
  ON "v5".col = 5 AND "v5".value = CAST(src."ünï" AS TEXT)
ORDER BY
  src.rowid
