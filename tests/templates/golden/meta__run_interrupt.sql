/* purpose: mark the runs a stopped process left 'running' as interrupted (a writer holds the file alone) */
/* params: live, note */
/* returns: run_id of each run marked */
/* ref: issue 11 (audit state: no run stays 'running' once the next command has run) */
UPDATE ldiv.run SET status = 'interrupted', error = $note
WHERE
  status = 'running' AND NOT ARRAY_CONTAINS(CAST($live AS INT[]), run_id)
RETURNING run_id
