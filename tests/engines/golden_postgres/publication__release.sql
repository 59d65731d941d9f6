/* purpose: the current (not superseded) release recorded under a name, with what publishing it needs to know */
/* params: name */
/* returns: release_id, name, source, algorithm, verified, superseded_by (0 or 1 row; superseded_by always NULL) */
/* ref: ldiv_db/pipeline/publication.py; name is the display name anonymize records (schema.table), matched case-insensitively */
SELECT
  release_id,
  name,
  source,
  algorithm,
  verified,
  superseded_by
FROM ldiv.release
WHERE
  LOWER(name) = LOWER((
    CAST(%(name)s AS TEXT)
  )) AND superseded_by IS NULL
ORDER BY
  release_id DESC NULLS LAST
LIMIT 1
