/* purpose: the sensitivity categories of an SA column: those stored for (table, column), and those of the column in the source of the newest recorded release written as that table (a release's SA keeps its source's categories); the caller keeps the first where there are any (ldiv_db/core/stored.py) */
/* params: table_name, column_name */
/* returns: value, category, own (true: stored for the table itself), ordered by category, then value; no row when neither has categories */
/* ref: SPEC §3.1; DESIGN §6 (every release is recorded in ldiv.release). One statement for the two reads a check made; one scan of each table, the choice between them in Python, where a CTE chose with NOT EXISTS (issue 57 item 1) */
SELECT
  value,
  category,
  table_name = $table_name AS own
FROM ldiv.sa_category
WHERE
  column_name = $column_name
  AND (
    table_name = $table_name
    OR table_name = (
      SELECT
        ARG_MAX(source, release_id)
      FROM ldiv.release
      WHERE
        name = $table_name
    )
  )
ORDER BY
  category,
  value
