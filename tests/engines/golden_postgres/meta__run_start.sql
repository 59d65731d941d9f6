/* purpose: record the start of a run */
/* params: command, algorithm, source, output, params */
/* returns: run_id */
/* ref: DESIGN §6 (every run is recorded in ldiv.run) */
INSERT INTO ldiv.run (
  run_id,
  command,
  algorithm,
  source,
  output,
  params,
  status
)
VALUES
  (
    NEXTVAL('ldiv.run_seq'),
    (
      CAST(%(command)s AS TEXT)
    ),
    (
      CAST(%(algorithm)s AS TEXT)
    ),
    (
      CAST(%(source)s AS TEXT)
    ),
    (
      CAST(%(output)s AS TEXT)
    ),
    CAST((
      CAST(%(params)s AS TEXT)
    ) AS JSON),
    'running'
  )
RETURNING run_id
