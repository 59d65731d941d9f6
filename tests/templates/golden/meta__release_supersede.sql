/* purpose: mark earlier releases written to the same output as superseded by a new one */
/* params: name, release_id */
/* returns: nothing */
/* ref: issue 2 item 11 (re-running a job replaces the previous release atomically) */
UPDATE ldiv.release SET superseded_by = $release_id
WHERE
  name = $name AND release_id <> $release_id AND superseded_by IS NULL
