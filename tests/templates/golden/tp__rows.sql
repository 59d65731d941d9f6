/* purpose: TP's row map: every source row with its QI-group id and its SA id in first-appearance order */
/* params: none */
/* returns: creates target(rid, g, g2, sid): g = a 63-bit hash of the QI values and g2 an independent one (tp/cells.sql flags a g whose rows disagree on g2, i.e. a collision); with exact_ids, g = g2 = the row id of the group's first row; sid = 1-based SA id (tp/sa_ids.sql) */
/* ref: SPEC §1.2 (QI-groups), §0.6 (SA values in first-appearance order); DESIGN §5 (compress first: later steps work on integers); partition/histogram.sql (the same hashing) */
/*      null_safe: the SA may hold NULL (--null-as-value); else its join is a plain equality (hilbert/coords.sql says why) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk tp rows 2's" AS
SELECT
  src.rowid AS rid,
  MIN(src.rowid) OVER (PARTITION BY src."it's", src."a""b", src."Zip Code", src."select") AS g,
  MIN(src.rowid) OVER (PARTITION BY src."it's", src."a""b", src."Zip Code", src."select") AS g2,
  val.sid
FROM "main"."select" AS src
JOIN "temp"."main"."wk tp sa ids's" AS val
  ON src."ünï" IS NOT DISTINCT FROM val.v
