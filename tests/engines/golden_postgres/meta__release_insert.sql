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
    (
      CAST(%(run_id)s AS BIGINT)
    ),
    (
      CAST(%(name)s AS TEXT)
    ),
    (
      CAST(%(source)s AS TEXT)
    ),
    (
      CAST(%(algorithm)s AS TEXT)
    ),
    (
      CAST(%(model)s AS TEXT)
    ),
    (
      CAST(%(l)s AS TEXT)
    ),
    CAST((
      CAST(%(qi)s AS TEXT)
    ) AS JSON),
    CAST((
      CAST(%(sa)s AS TEXT)
    ) AS JSON),
    (
      CAST(%(rows_in)s AS BIGINT)
    ),
    (
      CAST(%(rows_published)s AS BIGINT)
    ),
    (
      CAST(%(rows_suppressed)s AS BIGINT)
    ),
    (
      CAST(%(groups)s AS BIGINT)
    ),
    CAST((
      CAST(%(metrics)s AS TEXT)
    ) AS JSON),
    CAST((
      CAST(%(details)s AS TEXT)
    ) AS JSON),
    (
      CAST(%(verified)s AS BOOLEAN)
    ),
    CAST((
      CAST(%(verification)s AS TEXT)
    ) AS JSON)
  )
RETURNING release_id
