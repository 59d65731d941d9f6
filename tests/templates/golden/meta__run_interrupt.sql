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
  ELSE $status
END, error = CASE
  WHEN run_id IN (
    SELECT
      r.run_id
    FROM ldiv.release AS r
  )
  THEN $published_note
  ELSE $note
END, finished_at = CASE WHEN $stale THEN NULL ELSE CURRENT_TIMESTAMP END, seconds = $seconds, queries = $queries
WHERE
  status = 'running' AND ARRAY_CONTAINS(CAST($runs AS INT[]), run_id)
RETURNING run_id, status
