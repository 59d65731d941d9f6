/* purpose: end the runs that could not record their end: with run_id NULL every run a stopped process */
/*          left 'running' (all but this process's $live runs; a writer holds the file alone), else the */
/*          run $run_id stopped by Ctrl-C. A run whose release was committed is 'done' (it stopped after */
/*          the commit), any other 'interrupted'. */
/* params: run_id, live, note, published_note, seconds, queries */
/* returns: run_id, status */
/* ref: issue 11 (audit state: no run stays 'running' once the next command has run) */
UPDATE ldiv.run SET status = CASE
  WHEN run_id IN (
    SELECT
      r.run_id
    FROM ldiv.release AS r
  )
  THEN 'done'
  ELSE 'interrupted'
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
END, finished_at = CASE WHEN NULL IS NULL THEN NULL ELSE CURRENT_TIMESTAMP END, seconds = NULL, queries = NULL
WHERE
  status = 'running'
  AND CASE
    WHEN NULL IS NULL
    THEN NOT CASE
      WHEN run_id IS NULL
      THEN NULL
      ELSE COALESCE(run_id = ANY(
        CAST((
          CAST(%(live)s AS BIGINT[])
        ) AS INT[])
      ), FALSE)
    END
    ELSE run_id = NULL
  END
RETURNING run_id, status
