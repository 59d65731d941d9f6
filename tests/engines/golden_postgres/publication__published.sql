/* purpose: the published releases of one source (every release ever published: a release that left the database stays out there, superseded or not) */
/* params: source */
/* returns: release_id, name, superseded_by (newest first) */
/* ref: migrations/0004_publication.sql; ldiv_db/pipeline/publication.py (the composition check at publication) */
SELECT
  r.release_id,
  r.name,
  r.superseded_by
FROM ldiv.release AS r
WHERE
  LOWER(r.source) = LOWER((
    CAST(%(source)s AS TEXT)
  ))
  AND r.release_id IN (
    SELECT
      p.release_id
    FROM ldiv.publication AS p
    WHERE
      p.state = 'published'
  )
ORDER BY
  r.release_id DESC NULLS LAST
