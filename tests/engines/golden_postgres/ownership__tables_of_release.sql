/* purpose: the tables a release owns now, as recorded when it wrote them (none once a later release replaced them) */
/* params: release_id */
/* returns: schema_name, table_name, rows, digest */
/* ref: migrations/0003_release_table.sql; ldiv_db/ownership.py (release_table_problem) */
SELECT
  schema_name,
  table_name,
  rows,
  digest
FROM ldiv.release_table
WHERE
  release_id = (
    CAST(%(release_id)s AS BIGINT)
  )
ORDER BY
  table_name
