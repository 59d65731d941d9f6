-- purpose: a table's fingerprint: its row count and the sum of its rows' hashes
-- params: none
-- returns: n, digest
-- ref: ldiv_db/core/ownership.py (a release is replaced only while it is as ldiv_db wrote it)
SELECT count(*) AS n, CAST(coalesce(sum(hash(t)), 0) AS VARCHAR) AS digest
FROM {{ target | table }} AS t
