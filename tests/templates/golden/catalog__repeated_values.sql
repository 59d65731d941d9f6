/* purpose: how many of a column's values repeat another row's or are NULL (0: every row has a value of its own) */
/* params: none */
/* returns: repeated */
/* ref: ldiv_db/db/spark/engine.py (a table's row id column, ldiv_rowid, before its rows are linked to a release) */
SELECT
  COUNT(*) - COUNT(DISTINCT "ünï") AS repeated
FROM "main"."select"
