/* purpose: record the private link of a release: every row published so far (the previous release's rows, unchanged, and this release's) with its group */
/* params: release_id, previous_id */
/* returns: inserts into ldiv.release_row */
/* ref: DESIGN §6 (ldiv.release_row; source_rowid is the stream row key) */
INSERT INTO ldiv.release_row (
  release_id,
  source_rowid,
  group_id,
  suppressed
)
SELECT
  (
    CAST(%(release_id)s AS BIGINT)
  ),
  source_rowid,
  group_id,
  FALSE
FROM ldiv.release_row
WHERE
  release_id = NULL
UNION ALL
SELECT
  (
    CAST(%(release_id)s AS BIGINT)
  ),
  rk,
  gid,
  FALSE
FROM "pg_temp"."wk dec assignment's"
