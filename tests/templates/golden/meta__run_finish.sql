/* purpose: record the end of a run: status, time, queries issued, metrics or the error */
/* params: run_id, status, seconds, queries, metrics, error */
/* returns: nothing */
/* hints: changes-a-row */
/* ref: DESIGN §6 */
UPDATE ldiv.run SET status = $status, finished_at = CURRENT_TIMESTAMP, seconds = $seconds, queries = $queries, metrics = CAST($metrics AS JSON), error = $error
WHERE
  run_id = $run_id
