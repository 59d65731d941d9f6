/* purpose: a table's fingerprint: its row count and the sum of its rows' hashes */
/* params: none */
/* returns: n, digest */
/* ref: ldiv_db/ownership.py (a release is replaced only while it is as ldiv_db wrote it) */
SELECT
  COUNT(*) AS n,
  CAST(COALESCE(
    SUM(
      (
        HASHTEXTEXTENDED(
          (
            COALESCE(CAST(LENGTH(CAST(t AS TEXT)) AS TEXT) || ':' || CAST(t AS TEXT), 'N')
          ),
          0
        ) & 9223372036854775807
      )
    ),
    0
  ) AS TEXT) AS digest
FROM "main"."select" AS t
