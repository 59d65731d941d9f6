/* purpose: write the QID-table: the QI and non-sensitive columns of every published row, unchanged, with the SA-group id (earlier releases' rows first, copied unchanged) */
/* params: none */
/* returns: creates output(<QI columns>, <kept columns>, <group column>) ordered by group and values */
/* ref: SPEC §4.1 (QID-table); DESIGN §6 (no source row ids in a published table) */
CREATE TABLE "main"."out it's_qid" AS
SELECT
  *
FROM (
  SELECT
    p."c1" AS "it's",
    p."c2" AS "a""b",
    p."c3" AS "Zip Code",
    p."c4" AS "select",
    p."c5" AS "group",
    a.gid AS "group id"
  FROM "pg_temp"."wk dec pool's" AS p
  JOIN "pg_temp"."wk dec assignment's" AS a
    ON a.rk = p.rk
) AS ldiv_sq0
ORDER BY
  "group id",
  "it's",
  "a""b",
  "Zip Code",
  "select",
  "group";
ANALYZE "main"."out it's_qid"
