/* purpose: count the private row links of releases that were not recorded (from the reserved id on) */
/* params: release_id */
/* returns: n */
/* ref: ldiv_db/pipeline/publish.py (_staged) */
SELECT
  COUNT(*) AS n
FROM ldiv.release_row
WHERE
  release_id >= $release_id
