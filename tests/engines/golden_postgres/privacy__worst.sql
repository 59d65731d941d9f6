/* purpose: the worst violating groups of a verdict with their severity and size, worst first (the order of privacy/summary.sql's worst_gids) */
/* params: worst */
/* returns: gid, severity, size (at most $worst rows) */
/* ref: issue 2 item 7; a partitioned check (ldiv_db/check.py) merges the worst groups of its parts by these columns */
SELECT
  gid,
  CAST(severity AS DOUBLE PRECISION) AS severity,
  CAST(size AS BIGINT) AS size
FROM "pg_temp"."tpl it's_verdict"
WHERE
  NOT ok
ORDER BY
  severity DESC NULLS LAST,
  size DESC NULLS LAST,
  gid
LIMIT (
  CAST(%(worst)s AS BIGINT)
)
