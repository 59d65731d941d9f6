/* purpose: record one step of a release towards publication (the audit trail of publication) */
/* params: release_id, state, accepted, composition, note */
/* returns: inserts one row into ldiv.publication */
/* ref: migrations/0004_publication.sql */
INSERT INTO ldiv.publication (
  release_id,
  state,
  accepted,
  composition,
  note
)
VALUES
  (
    (
      CAST(%(release_id)s AS BIGINT)
    ),
    (
      CAST(%(state)s AS TEXT)
    ),
    (
      CAST(%(accepted)s AS BOOLEAN)
    ),
    CAST(NULL AS JSON),
    (
      CAST(%(note)s AS TEXT)
    )
  )
