/* purpose: every table a current release owns, with the row count and digest recorded when it was written and verified */
/* params: none */
/* returns: release_id, schema_name, table_name, rows, digest */
/* ref: migrations/0003_release_table.sql; ldiv_db/core/release_state.py (a recorded verdict is shown only while its table is as verified) */
SELECT
  release_id,
  schema_name,
  table_name,
  rows,
  digest
FROM ldiv.release_table
ORDER BY
  release_id,
  table_name
