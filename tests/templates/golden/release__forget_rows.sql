/* purpose: remove the private row links from the reserved release id on (a staged publish that failed or was killed before its record) */
/* params: release_id */
/* returns: nothing */
/* ref: ldiv_db/pipeline/publish.py (_staged) */
DELETE FROM ldiv.release_row
WHERE
  release_id >= $release_id
