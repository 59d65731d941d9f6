/* purpose: append the rows of a frame registered on the connection to an existing table, columns matched by name */
/* params: none */
/* returns: nothing */
/* ref: ldiv_db/db/duckdb/engine.py (insert_frame: the step log, a stream's rows); DESIGN §4 (SQL writes) */
INSERT INTO "temp"."main"."wk appended's" (
  "it's",
  "ünï"
)
SELECT
  "it's",
  "ünï"
FROM "main"."select"
