-- purpose: a table's fingerprint on Spark: its row count and the sum of its rows' hashes (Spark hashes the row's columns with xxhash64(*); DuckDB's hash(t) of the row value has no Spark form)
-- params: none
-- returns: n, digest
-- ref: ldiv_db/core/ownership.py (a release is replaced only while it is as ldiv_db wrote it)
SELECT count(*) AS n, CAST(coalesce(sum(xxhash64(*)), 0) AS VARCHAR) AS digest
FROM {{ target | table }} AS t
