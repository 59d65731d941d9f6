/* purpose: list recorded releases, newest first */
/* params: none */
/* returns: release_id, name, source, algorithm, model, l, rows_in, rows_published, rows_suppressed, groups, verified, verification (JSON text: the model verified per partition), superseded_by, created_at, metrics (JSON as text: the classes' k and risk) */
/* ref: DESIGN §6 (groups: the release's class count, ldiv_db/core/classes.py) */
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
  created_at,
  CAST(metrics AS TEXT) AS metrics
FROM ldiv.release
ORDER BY
  release_id DESC NULLS LAST
