/* purpose: top-down specialization: every row of the source once, in row id order, with its QI values and its SA value as text (the spelling of the hierarchy leaves and of the partition statistics) */
/* params: none */
/* returns: rid, q1..qd, a1 (NULL stays NULL: with --null-as-value a value of its own) */
/* ref: SPEC §3.3 (every row starts at the root); SPEC §0.4 (leaves are the values as text) */
SELECT
  (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS rid,
  CAST(src."it's" AS TEXT) AS "q1",
  CAST(src."a""b" AS TEXT) AS "q2",
  CAST(src."Zip Code" AS TEXT) AS "q3",
  CAST(src."select" AS TEXT) AS "q4",
  CAST(src."ünï" AS TEXT) AS a1
FROM "main"."select" AS src
ORDER BY
  (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  )
