-- purpose: store a release's final verdict and verification once its guarantees were checked on the written release (inside the release transaction)
-- params: release_id, verified, verification
-- returns: nothing
-- ref: DESIGN §6 (a release is verified before it is reported as done; every guarantee kept or refused)
UPDATE ldiv.release SET verified = $verified, verification = CAST($verification AS JSON)
WHERE release_id = $release_id
