DROP TABLE IF EXISTS "pg_temp"."wk dec pending 2's";
/* purpose: an empty work table shaped like ldiv.stream_row, where a staged release keeps its new stream rows until it is recorded */
/* params: none */
/* returns: creates target */
/* ref: ldiv_db/pipeline/staged.py (a release without transactions); SPEC §4.3 */
CREATE TABLE "pg_temp"."wk dec pending 2's" AS
SELECT
  name,
  row_key,
  source,
  source_rowid,
  arrived
FROM ldiv.stream_row
WHERE
  FALSE;
ANALYZE "pg_temp"."wk dec pending 2's"
