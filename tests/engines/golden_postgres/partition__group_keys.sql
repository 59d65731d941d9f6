/* purpose: the key values (QI tuple or group column) and size of selected groups, for reports */
/* params: gids */
/* returns: gid, size, k1..kd, one row per group found, in no order; with raw_id, gid is that integer column as it stands (a written release's group id) and k1..kd the keys' values of that group */
/* ref: issue 2 item 7 (the worst groups); one scan of the source, only when groups are reported; no ORDER BY: the caller names the groups by gid (core/evaluator.py: SqlEvaluator.group_keys), and a sort is one more operator to plan on every check (issue 57 item 1, round 6) */
WITH t AS (
  SELECT
    CAST((
      (
        COALESCE(pg_temp.ldiv_hash("it's", 31565978154320661), 7543343189686326) # COALESCE(pg_temp.ldiv_hash("a""b", 70870475532305851), 62452762661371233)
      ) & 9223372036854775807
    ) >> 1 AS BIGINT) AS gid,
    "it's" AS "k1",
    "a""b" AS "k2"
  FROM "main"."select"
)
SELECT
  gid,
  COUNT(*) AS size,
  (
    ARRAY_AGG("k1") FILTER(WHERE
      "k1" IS NOT NULL)
  )[1] AS "k1",
  (
    ARRAY_AGG("k2") FILTER(WHERE
      "k2" IS NOT NULL)
  )[1] AS "k2"
FROM t
WHERE
  gid = ANY(
    (
      CAST(%(gids)s AS BIGINT[])
    )
  )
GROUP BY
  gid
