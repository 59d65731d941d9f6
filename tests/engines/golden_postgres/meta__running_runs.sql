/* purpose: the runs recorded as 'running' (their owners may be gone: ldiv_db/schema/runs.py stale_runs) */
/* params: none */
/* returns: run_id */
/* ref: issue 51 class 9 (a run is never left 'running') */
SELECT
  run_id
FROM ldiv.run
WHERE
  status = 'running'
ORDER BY
  run_id
