/* purpose: every row of a table, in storage order (a bulk transfer to another engine) */
/* params: none */
/* returns: the table's columns */
/* ref: issue 13 (ldiv load on PostgreSQL) */
SELECT
  *
FROM "main"."select"
