/* purpose: whether a run recorded a release (a staged publish killed before its record did not) */
/* params: run_id */
/* returns: n */
/* ref: ldiv_db/pipeline/staged.py (recover) */
SELECT
  COUNT(*) AS n
FROM ldiv.release
WHERE
  run_id = $run_id
