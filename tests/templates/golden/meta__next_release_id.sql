/* purpose: the id the next release record will get (engines without transactions reserve it to link the rows first) */
/* params: none */
/* returns: release_id */
/* ref: ldiv_db/pipeline/publish.py (_staged) */
SELECT
  COALESCE(MAX(release_id), 0) + 1 AS release_id
FROM ldiv.release
