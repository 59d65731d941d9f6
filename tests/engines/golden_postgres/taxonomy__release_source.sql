/* purpose: the source table of the newest recorded release written to a table (a release's SA keeps its source's categories) */
/* params: name */
/* returns: source (no row when the table is not a recorded release) */
/* ref: DESIGN §6 (every release is recorded in ldiv.release) */
SELECT
  source
FROM ldiv.release
WHERE
  name = (
    CAST(%(name)s AS TEXT)
  )
ORDER BY
  release_id DESC NULLS LAST
LIMIT 1
