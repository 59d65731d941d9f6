/* purpose: the releases (and release streams) that read a table as their source, by its display name */
/* params: name */
/* returns: release (display name), newest first */
/* ref: ldiv_db/core/ownership.py (a source table is never dropped or replaced by a release) */
SELECT
  release
FROM (
  SELECT
    name AS release,
    release_id AS k
  FROM ldiv.release
  WHERE
    LOWER(source) = LOWER($name)
  UNION ALL
  SELECT
    name AS release,
    0 AS k
  FROM ldiv.stream_row
  WHERE
    LOWER(source) = LOWER($name)
)
GROUP BY
  release
ORDER BY
  MAX(k) DESC,
  release
LIMIT 3
