/* purpose: record the private link from source rows to published groups for one release */
/* params: release_id */
/* returns: inserts into ldiv.release_row */
/* ref: DESIGN §6 (ldiv.release_row(release_id, source_rowid, group_id)) */
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
  rid,
  CASE WHEN deleted THEN NULL ELSE gid END,
  deleted OR sa_suppressed
FROM "pg_temp"."wk assignment's"
