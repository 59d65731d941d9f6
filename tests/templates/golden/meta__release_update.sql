/* purpose: store a release's metrics and verification verdict once they are known */
/* params: release_id, metrics, verified, verification */
/* returns: nothing */
/* ref: DESIGN §6 (a release is verified before it is reported as done) */
UPDATE ldiv.release SET metrics = CAST($metrics AS JSON), verified = $verified, verification = CAST($verification AS JSON)
WHERE
  release_id = $release_id
