/* purpose: whether every row of a base table has a row id of its own: every table numbers its own rows, but a column named rowid (in any case) hides them, and rowid then reads that column */
/* params: schema, name */
/* returns: problem (one row): NULL, or what keeps the rows from having ids of their own — 'shadowed' (a column named rowid), 'shared' (another table's rows number alike: a PostgreSQL partitioned table), or on Spark, whose tables have no row ids, 'missing' / 'not integer' / 'repeated' (the ldiv_rowid column; answered from Spark's catalog) */
/* ref: DESIGN §6 (the source's rows are identified by their row ids); the PostgreSQL variant beside this file (a column named rowid hides nothing there: row ids are ctid) */
SELECT
  CASE WHEN COUNT(*) > 0 THEN 'shadowed' END AS problem
FROM information_schema."columns"
WHERE
  table_catalog = CURRENT_DATABASE()
  AND table_schema = $schema
  AND table_name = $name
  AND LOWER(column_name) = 'rowid'
