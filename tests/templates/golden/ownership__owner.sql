/* purpose: the release that owns a table of the working database, if ldiv_db recorded one */
/* params: schema, name */
/* returns: release_schema, release_name, release_id, algorithm, rows, digest (0 or 1 row) */
/* ref: migrations/0003_release_table.sql; ldiv_db/core/ownership.py */
SELECT
  o.release_schema,
  o.release_name,
  o.release_id,
  r.algorithm,
  o.rows,
  o.digest
FROM ldiv.release_table AS o
LEFT JOIN ldiv.release AS r
  ON r.release_id = o.release_id
WHERE
  LOWER(o.schema_name) = LOWER($schema) AND LOWER(o.table_name) = LOWER($name)
ORDER BY
  o.recorded_at DESC,
  o.release_id DESC
LIMIT 1
