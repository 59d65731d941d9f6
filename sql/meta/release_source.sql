-- purpose: the source table, the SA columns and the recorded verification of one release (a check of the release judges distribution models against the source's SA distribution, and reads a NULL SA value as its run published it)
-- params: release_id
-- returns: source, sa, verification (both JSON as text); 0 or 1 row
-- ref: docs/decisions/0014-distribution-models.md (the baseline is the whole input's SA distribution); DESIGN §6
SELECT r.source, CAST(r.sa AS VARCHAR) AS sa, CAST(r.verification AS VARCHAR) AS verification
FROM ldiv.release AS r
WHERE r.release_id = $release_id
