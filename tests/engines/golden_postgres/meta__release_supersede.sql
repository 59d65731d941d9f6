/* purpose: mark earlier releases written to the same output as superseded by a new one */
/* params: name, release_id */
/* returns: nothing */
/* ref: issue 2 item 11 (re-running a job replaces the previous release atomically) */
UPDATE ldiv.release SET superseded_by = (
  CAST(%(release_id)s AS BIGINT)
)
WHERE
  name = (
    CAST(%(name)s AS TEXT)
  )
  AND release_id <> (
    CAST(%(release_id)s AS BIGINT)
  )
  AND superseded_by IS NULL
