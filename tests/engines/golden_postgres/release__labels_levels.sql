DROP TABLE IF EXISTS "pg_temp"."wk lev's";
/* purpose: full-domain (global) recoding labels per row: every QI value replaced by its ancestor at the chosen hierarchy level (level 0 keeps the value) */
/* params: hids, levels */
/* returns: creates target(rid, q1..qd, a1..as): the labels plus the SA values */
/* ref: SPEC §0.4; ARX full-domain transformations (one level per attribute) */
CREATE TABLE "pg_temp"."wk lev's" AS
SELECT
  (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS rid,
  lv1.label AS "q1",
  CAST(src."a""b" AS TEXT) AS "q2",
  CAST(src."Zip Code" AS TEXT) AS "q3",
  CAST(src."select" AS TEXT) AS "q4",
  src."ünï" AS "a1"
FROM "main"."select" AS src
LEFT JOIN ldiv.hierarchy_level AS lv1
  ON lv1.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[1]
  AND lv1.level = (
    (
      CAST(%(levels)s AS BIGINT[])
    )
  )[1]
  AND lv1.leaf = CAST(src."it's" AS TEXT);
ANALYZE "pg_temp"."wk lev's"
