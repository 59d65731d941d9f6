/* purpose: a work table keyed by the row ids of the seeded copy (sql/order/seeded_source.sql), keyed by the source's row ids instead */
/* params: none */
/* returns: creates target(rid, <columns>) */
/* ref: ldiv_db/pipeline/opaque.py (an algorithm's assignment and row labels name the copy's rows; the release names the source's) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk by source's" AS
SELECT
  CAST(s.ldiv_source_rowid AS BIGINT) AS rid,
  t."gid",
  t."deleted",
  t."sa_suppressed"
FROM "temp"."main"."wk seeded assignment's" AS t
JOIN "temp"."main"."wk seeded it's's" AS s
  ON s.rowid = t.rid
