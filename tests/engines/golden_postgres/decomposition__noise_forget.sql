/* purpose: forget the private noise log written under a release id whose release was not recorded (a staged release that failed, or a killed one) */
/* params: release_id */
/* returns: deletes from ldiv.noise */
/* ref: ldiv_db/pipeline/staged.py (a release without transactions) */
DELETE FROM ldiv.noise
WHERE
  release_id = (
    CAST(%(release_id)s AS BIGINT)
  )
