/* purpose: how many source rows a release deleted (left out of its table) */
/* params: release_id */
/* returns: deleted (one row) */
/* ref: DESIGN §6 (ldiv.release_row: group_id is NULL for a deleted row); docs/decisions/0005-composition-check.md (a release that left the target out tells nothing about it) */
SELECT
  COUNT(*) AS deleted
FROM ldiv.release_row
WHERE
  release_id = (
    CAST(%(release_id)s AS BIGINT)
  ) AND group_id IS NULL
