/* purpose: record a release and its verification verdict */
/* params: run_id, name, source, algorithm, model, l, qi, sa, rows_in, rows_published, rows_suppressed, groups, metrics, details, verified, verification */
/* returns: release_id */
/* ref: DESIGN §6 (every release in ldiv.release) */
INSERT INTO ldiv.release (
  release_id,
  run_id,
  name,
  source,
  algorithm,
  model,
  l,
  qi,
  sa,
  rows_in,
  rows_published,
  rows_suppressed,
  groups,
  metrics,
  details,
  verified,
  verification
)
VALUES
  (
    NEXTVAL('ldiv.release_seq'),
    $run_id,
    $name,
    $source,
    $algorithm,
    $model,
    $l,
    CAST($qi AS JSON),
    CAST($sa AS JSON),
    $rows_in,
    $rows_published,
    $rows_suppressed,
    $groups,
    CAST($metrics AS JSON),
    CAST($details AS JSON),
    $verified,
    CAST($verification AS JSON)
  )
RETURNING release_id
