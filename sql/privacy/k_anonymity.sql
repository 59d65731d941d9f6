-- purpose: k-anonymity verdict per group: |G| >= k
-- params: k
-- returns: creates target(gid, size, ok, severity); severity = k - |G| (larger is worse)
-- ref: SPEC §0.2 context; Sweeney's k-anonymity
{{ target | create_table }} AS
SELECT gid, size, size >= $k AS ok, CAST($k - size AS DOUBLE) AS severity
FROM {{ stats | table }}
WHERE s = 1
