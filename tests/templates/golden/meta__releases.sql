/* purpose: list recorded releases, newest first */
/* params: none */
/* returns: release_id, name, source, algorithm, model, l, rows_in, rows_published, rows_suppressed, groups, verified, verification (JSON text: the model verified per partition), superseded_by, created_at */
/* ref: DESIGN §6 */
SELECT
  release_id,
  name,
  source,
  algorithm,
  model,
  l,
  rows_in,
  rows_published,
  rows_suppressed,
  groups,
  verified,
  CAST(verification AS TEXT) AS verification,
  superseded_by,
  created_at
FROM ldiv.release
ORDER BY
  release_id DESC
