-- purpose: the details recorded with a release (the algorithm's figures, and the group column the pipeline wrote)
-- params: release_id
-- returns: details (JSON as text; 0 or 1 row)
-- ref: DESIGN §6 (the class: the finest partition the published table reveals); ldiv_db/core/classes.py
SELECT CAST(details AS VARCHAR) AS details
FROM ldiv.release
WHERE release_id = $release_id
