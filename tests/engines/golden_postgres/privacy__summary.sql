/* purpose: how many groups and rows violate the model, and which groups are the worst */
/* params: worst */
/* returns: violating_groups, violating_rows, worst_gids (up to $worst gids, worst first: severity, then size, then gid), worst_severities and worst_sizes (theirs, in the same order) */
/* ref: issue 2 item 7; a partitioned check (ldiv_db/verify/check.py) merges the worst groups of its parts by their severity and size */
WITH w AS (
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
), worst AS (
  SELECT
    COALESCE(ARRAY_AGG(gid ORDER BY severity DESC NULLS LAST, size DESC NULLS LAST, gid), '{}') AS gids,
    COALESCE(
      ARRAY_AGG(severity ORDER BY severity DESC NULLS LAST, size DESC NULLS LAST, gid),
      '{}'
    ) AS severities,
    COALESCE(ARRAY_AGG(size ORDER BY severity DESC NULLS LAST, size DESC NULLS LAST, gid), '{}') AS sizes
  FROM w
)
SELECT
  COUNT(*) FILTER(WHERE
    NOT ok) AS violating_groups,
  CAST(COALESCE(SUM(size) FILTER(WHERE
    NOT ok), 0) AS BIGINT) AS violating_rows,
  (
    SELECT
      gids
    FROM worst
  ) AS worst_gids,
  (
    SELECT
      severities
    FROM worst
  ) AS worst_severities,
  (
    SELECT
      sizes
    FROM worst
  ) AS worst_sizes
FROM "pg_temp"."tpl it's_verdict"
