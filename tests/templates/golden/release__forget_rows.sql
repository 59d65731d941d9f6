/* purpose: remove the private row links of a release that was not recorded (staged publish failed) */
/* params: release_id */
/* returns: nothing */
/* ref: ldiv_db/pipeline/staged_release.py */
DELETE FROM ldiv.release_row
WHERE
  release_id = $release_id
