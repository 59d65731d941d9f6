/* purpose: record the end of a run: status, time, queries issued, metrics or the error */
/* params: run_id, status, seconds, queries, metrics, error */
/* returns: nothing */
/* hints: changes-a-row */
/* ref: DESIGN §6 */
UPDATE ldiv.run SET status = (
  CAST(%(status)s AS TEXT)
), finished_at = CURRENT_TIMESTAMP, seconds = (
  CAST(%(seconds)s AS DOUBLE PRECISION)
), queries = (
  CAST(%(queries)s AS BIGINT)
), metrics = CAST((
  CAST(%(metrics)s AS TEXT)
) AS JSON), error = NULL
WHERE
  run_id = (
    CAST(%(run_id)s AS BIGINT)
  )
