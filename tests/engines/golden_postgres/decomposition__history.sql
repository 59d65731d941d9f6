/* purpose: the releases of one stream, oldest first, with their recorded details */
/* params: name, first_release */
/* returns: release_id, rows_in, rows_published, groups, verified, superseded_by, details, created_at */
/* ref: SPEC §4.3 (continuous release); issue 7 (ldiv release history) */
SELECT
  release_id,
  rows_in,
  rows_published,
  groups,
  verified,
  superseded_by,
  CAST(details AS TEXT) AS details,
  created_at
FROM ldiv.release
WHERE
  name = (
    CAST(%(name)s AS TEXT)
  )
  AND release_id >= (
    CAST(%(first_release)s AS BIGINT)
  )
ORDER BY
  release_id
