/* purpose: the state of one release stream */
/* params: name */
/* returns: name, source, config, releases, first_release, next_key, retained, created_at (0 or 1 row) */
/* ref: SPEC §4.3 */
SELECT
  name,
  source,
  CAST(config AS TEXT) AS config,
  releases,
  first_release,
  next_key,
  retained,
  created_at
FROM ldiv.stream
WHERE
  name = (
    CAST(%(name)s AS TEXT)
  )
