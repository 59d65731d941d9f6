/* purpose: a table's fingerprint: its row count and the sum of its rows' hashes */
/* params: none */
/* returns: n, digest */
/* ref: ldiv_db/core/ownership.py (a release is replaced only while it is as ldiv_db wrote it) */
SELECT
  COUNT(*) AS n,
  CAST(COALESCE(SUM(HASH(t)), 0) AS TEXT) AS digest
FROM "main"."select" AS t
