/* purpose: the publication state of one release: 'published' once any publication row says so, else 'candidate' when `ldiv compare` wrote it, else 'draft' */
/* params: release_id */
/* returns: state (one row) */
/* ref: migrations/0004_publication.sql; DESIGN §6 (a release is a draft until it is published) */
SELECT
  CASE
    WHEN COUNT(*) FILTER(WHERE
      state = 'published') > 0
    THEN 'published'
    WHEN COUNT(*) FILTER(WHERE
      state = 'candidate') > 0
    THEN 'candidate'
    ELSE 'draft'
  END AS state
FROM ldiv.publication
WHERE
  release_id = (
    CAST(%(release_id)s AS BIGINT)
  )
