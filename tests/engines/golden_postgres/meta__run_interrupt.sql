/* purpose: end runs that could not record their end where they ran: the runs $runs, if still 'running' (stopped by Ctrl-C, their connection lost, or their owner gone: $stale, marked by a later command, which cannot know when they stopped). A run whose release was committed is 'done' (it stopped after the commit point), any other $status */
/* params: runs, status, note, published_note, stale, seconds, queries */
/* returns: run_id, status */
/* ref: issue 11 (audit state); issue 51 class 7 (a commit is reported as done) and class 9 (no run stays 'running') */
UPDATE ldiv.run SET status = CASE
  WHEN run_id IN (
    SELECT
      r.run_id
    FROM ldiv.release AS r
  )
  THEN 'done'
  ELSE (
    CAST(%(status)s AS TEXT)
  )
END, error = CASE
  WHEN run_id IN (
    SELECT
      r.run_id
    FROM ldiv.release AS r
  )
  THEN (
    CAST(%(published_note)s AS TEXT)
  )
  ELSE (
    CAST(%(note)s AS TEXT)
  )
END, finished_at = CASE WHEN (
  CAST(%(stale)s AS BOOLEAN)
) THEN NULL ELSE CURRENT_TIMESTAMP END, seconds = NULL, queries = NULL
WHERE
  status = 'running'
  AND CASE
    WHEN run_id IS NULL
    THEN NULL
    ELSE COALESCE(run_id = ANY(
      CAST((
        CAST(%(runs)s AS BIGINT[])
      ) AS INT[])
    ), FALSE)
  END
RETURNING run_id, status
