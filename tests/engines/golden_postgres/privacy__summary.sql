/* purpose: how many groups and rows violate the model, and which groups are the worst */
/* params: worst */
/* returns: violating_groups, violating_rows, worst_gids (up to $worst gids, worst first: severity, then size) */
/* ref: issue 2 item 7 */
SELECT
  COUNT(*) FILTER(WHERE
    NOT ok) AS violating_groups,
  CAST(COALESCE(SUM(size) FILTER(WHERE
    NOT ok), 0) AS BIGINT) AS violating_rows,
  (
    SELECT
      COALESCE(ARRAY_AGG(gid), '{}')
    FROM (
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
    ) AS ldiv_sq1
  ) AS worst_gids
FROM "pg_temp"."tpl it's_verdict"
