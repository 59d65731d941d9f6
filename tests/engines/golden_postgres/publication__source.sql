/* purpose: the source table a release was made from */
/* params: release_id */
/* returns: source (one row) */
/* ref: ldiv_db/pipeline/publication.py (draft_composition) */
SELECT
  source
FROM ldiv.release
WHERE
  release_id = (
    CAST(%(release_id)s AS BIGINT)
  )
