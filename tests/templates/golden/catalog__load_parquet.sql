/* purpose: load a Parquet file, or the files a glob or a dataset folder matches (in name order), into a new table */
/* params: path */
/* returns: creates target */
/* ref: issue 2 item 3 */
CREATE TABLE "main"."loaded it's" AS
SELECT
  *
FROM READ_PARQUET($path)
