DROP TABLE IF EXISTS "pg_temp"."wk tp rows 2's";
/* purpose: TP's row map: every source row with its QI-group id and its SA id in first-appearance order */
/* params: none */
/* returns: creates target(rid, g, g2, sid): g = a 63-bit hash of the QI values and g2 an independent one (tp/cells.sql flags a g whose rows disagree on g2, i.e. a collision); with exact_ids, g = g2 = the row id of the group's first row; sid = 1-based SA id (tp/sa_ids.sql) */
/* ref: SPEC §1.2 (QI-groups), §0.6 (SA values in first-appearance order); DESIGN §5 (compress first: later steps work on integers); partition/histogram.sql (the same hashing) */
/*      null_safe: the SA may hold NULL (--null-as-value); else its join is a plain equality (hilbert/coords.sql says why) */
CREATE TABLE "pg_temp"."wk tp rows 2's" AS
SELECT
  (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS rid,
  MIN(
    (
      CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    )
  ) OVER (PARTITION BY src."it's", src."a""b", src."Zip Code", src."select") AS g,
  MIN(
    (
      CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
    )
  ) OVER (PARTITION BY src."it's", src."a""b", src."Zip Code", src."select") AS g2,
  val.sid
FROM "main"."select" AS src
JOIN "pg_temp"."wk tp sa ids's" AS val
  ON (
    src."ünï" IS NULL
  ) = (
    val.v IS NULL
  )
  AND COALESCE(CAST(src."ünï" AS TEXT), '') = COALESCE(CAST(val.v AS TEXT), '');
ANALYZE "pg_temp"."wk tp rows 2's"
