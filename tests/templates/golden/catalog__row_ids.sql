/* purpose: whether every row of a base table has a row id of its own: on this engine always (every table numbers its own rows) */
/* params: schema, name */
/* returns: problem (0 or 1 row): NULL, or what keeps the rows from having ids of their own — 'shared' (another table's rows number alike: a PostgreSQL partitioned table), or on Spark, whose tables have no row ids, 'missing' / 'not integer' / 'repeated' (the ldiv_rowid column; answered from Spark's catalog) */
/* ref: DESIGN §6 (the source's rows are identified by their row ids); the PostgreSQL variant beside this file */
SELECT
  CAST(NULL AS TEXT) AS problem
WHERE
  NOT $schema IS NULL AND NOT $name IS NULL
