/* purpose: the sensitivity categories of an SA column: those stored for (table, column), or where none is, those of the column in the source of the newest recorded release written as that table (a release's SA keeps its source's categories) */
/* params: table_name, column_name */
/* returns: value, category (ordered by category, then value); no row when neither has categories */
/* ref: SPEC §3.1; DESIGN §6 (every release is recorded in ldiv.release). One statement for the two reads a check made */
WITH own AS (
  SELECT
    value,
    category
  FROM ldiv.sa_category
  WHERE
    table_name = $table_name AND column_name = $column_name
), src AS (
  SELECT
    source
  FROM ldiv.release
  WHERE
    name = $table_name
  ORDER BY
    release_id DESC
  LIMIT 1
)
SELECT
  value,
  category
FROM own
UNION ALL
SELECT
  c.value,
  c.category
FROM ldiv.sa_category AS c
JOIN src
  ON c.table_name = src.source
WHERE
  c.column_name = $column_name AND NOT EXISTS(
    SELECT
      1
    FROM own
  )
ORDER BY
  category,
  value
