/* purpose: the class-size histogram of a partition from its group statistics: how many groups have each size (the groups are the classes when the partition's keys are ldiv_db/core/classes.py's class_keys) */
/* params: none */
/* returns: size, classes (one row per distinct size, ascending) */
/* ref: DESIGN §6 (the class is the finest partition the published table reveals); every group has a statistics row for the first SA (s = 1), a group of unknown SA values included (partition/group_stats.sql) */
SELECT
  size,
  COUNT(*) AS classes
FROM "pg_temp"."tpl it's_stats"
WHERE
  s = 1
GROUP BY
  size
ORDER BY
  size
