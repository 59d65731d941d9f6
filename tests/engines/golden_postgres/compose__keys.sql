DROP TABLE IF EXISTS "pg_temp"."wk compose keys's";
/* purpose: the attacker's targets: every source row's QI values (as text) and the set of releases that publish it, counted per distinct pair */
/* params: deleting */
/* returns: creates target(v1..vk, present, n): present is the bit mask (bit r-1 for the r-th release) of the releases holding the row, n the source rows */
/* ref: docs/decisions/0005-composition-check.md; deleting (shape): per release with deleted rows its position r, and deleting[i] its release id, read from ldiv.release_row (the private link, never published) */
CREATE TABLE "pg_temp"."wk compose keys's" AS
SELECT
  CAST(s."it's" AS TEXT) AS "v1",
  CAST(s."a""b" AS TEXT) AS "v2",
  CAST(s."Zip Code" AS TEXT) AS "v3",
  CAST(s."select" AS TEXT) AS "v4",
  3 - CASE WHEN "d1".source_rowid IS NULL THEN 0 ELSE 1 END AS present,
  COUNT(*) AS n
FROM "main"."select" AS s
LEFT JOIN (
  SELECT DISTINCT
    source_rowid
  FROM ldiv.release_row
  WHERE
    release_id = (
      (
        CAST(%(deleting)s AS BIGINT[])
      )
    )[1]
    AND group_id IS NULL
) AS "d1"
  ON "d1".source_rowid = (
    CAST(CAST('x' || ENCODE(TIDSEND(s.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  )
GROUP BY
  1,
  2,
  3,
  4,
  5;
ANALYZE "pg_temp"."wk compose keys's"
