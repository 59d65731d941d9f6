-- purpose: the releases of one stream, oldest first, with their recorded details
-- params: name, first_release
-- returns: release_id, rows_in, rows_published, groups, verified, superseded_by, details, created_at
-- ref: SPEC §4.3 (continuous release); issue 7 (ldiv release history)
SELECT release_id, rows_in, rows_published, groups, verified, superseded_by, CAST(details AS VARCHAR) AS details, created_at
FROM ldiv.release
WHERE name = $name AND release_id >= $first_release
ORDER BY release_id
