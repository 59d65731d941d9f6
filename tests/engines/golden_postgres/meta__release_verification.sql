/* purpose: store a release's final verdict and verification once its guarantees were checked on the written release (inside the release transaction) */
/* params: release_id, verified, verification */
/* returns: nothing */
/* ref: DESIGN §6 (a release is verified before it is reported as done; every guarantee kept or refused) */
UPDATE ldiv.release SET verified = (
  CAST(%(verified)s AS BOOLEAN)
), verification = CAST((
  CAST(%(verification)s AS TEXT)
) AS JSON)
WHERE
  release_id = (
    CAST(%(release_id)s AS BIGINT)
  )
