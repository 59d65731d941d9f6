-- purpose: the newest recorded release written to a table (the report's verdict and provenance), with its run
-- params: name
-- returns: release_id, run_id, name, source, algorithm, model, l, qi, sa, rows_in, rows_published, rows_suppressed, groups, metrics, details, verified, verification, created_at, run_seconds, run_params
-- ref: DESIGN §6 (ldiv.release, ldiv.run); name is the display name anonymize records (schema.table), matched case-insensitively
SELECT r.release_id, r.run_id, r.name, r.source, r.algorithm, r.model, r.l,
       CAST(r.qi AS VARCHAR) AS qi, CAST(r.sa AS VARCHAR) AS sa,
       r.rows_in, r.rows_published, r.rows_suppressed, r.groups,
       CAST(r.metrics AS VARCHAR) AS metrics, CAST(r.details AS VARCHAR) AS details,
       r.verified, CAST(r.verification AS VARCHAR) AS verification, r.created_at,
       run.seconds AS run_seconds, CAST(run.params AS VARCHAR) AS run_params
FROM ldiv.release AS r
LEFT JOIN ldiv.run AS run ON run.run_id = r.run_id
WHERE lower(r.name) = lower($name)
ORDER BY r.superseded_by IS NULL DESC, r.release_id DESC
LIMIT 1
