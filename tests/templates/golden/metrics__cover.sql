/* purpose: the cover of every release label — the domain values it stands for: the leaves under a node, the whole domain for '*', the value itself for a leaf, the domain values inside an interval (n_attrs: the QI attributes, numbered 1..n_attrs) */
/* params: none */
/* returns: creates target(attr, label, value, num) */
/* ref: SPEC §0.7 (cover(v) for KL; #leaves for NCP/LM); the labels that are not intervals: _macros/cover_listed.sql; PostgreSQL and Spark */
/*      read the intervals' values by rank instead of this range join (cover.postgres.sql, cover.spark.sql; decision 0038) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk metrics cover's" AS
SELECT
  l.attr,
  l.label,
  d.value,
  d.num
FROM "temp"."main"."wk metrics labels's" AS l
JOIN "temp"."main"."wk metrics domain's" AS d
  ON d.attr = l.attr AND d.value = l.label
WHERE
  l.kind = 'leaf'
UNION ALL
SELECT
  l.attr,
  l.label,
  d.value,
  d.num
FROM "temp"."main"."wk metrics labels's" AS l
JOIN "temp"."main"."wk metrics domain's" AS d
  ON d.attr = l.attr
WHERE
  l.kind = 'star'
UNION ALL
SELECT DISTINCT
  l.attr,
  l.label,
  d.value,
  d.num
FROM "temp"."main"."wk metrics labels's" AS l
JOIN ldiv.hierarchy_level AS hl
  ON hl.hierarchy_id = l.hierarchy_id AND hl.label = l.label
JOIN "temp"."main"."wk metrics domain's" AS d
  ON d.attr = l.attr AND d.value = hl.leaf
WHERE
  l.kind = 'node'
UNION ALL
SELECT
  l.attr,
  l.label,
  d.value,
  d.num
FROM (
  SELECT
    *
  FROM "temp"."main"."wk metrics labels's"
  WHERE
    attr = 1 AND kind = 'interval'
) AS l
JOIN (
  SELECT
    *
  FROM "temp"."main"."wk metrics domain's"
  WHERE
    attr = 1
) AS d
  ON d.num >= l.lo AND d.num <= l.hi
UNION ALL
SELECT
  l.attr,
  l.label,
  d.value,
  d.num
FROM (
  SELECT
    *
  FROM "temp"."main"."wk metrics labels's"
  WHERE
    attr = 2 AND kind = 'interval'
) AS l
JOIN (
  SELECT
    *
  FROM "temp"."main"."wk metrics domain's"
  WHERE
    attr = 2
) AS d
  ON d.num >= l.lo AND d.num <= l.hi
UNION ALL
SELECT
  l.attr,
  l.label,
  d.value,
  d.num
FROM (
  SELECT
    *
  FROM "temp"."main"."wk metrics labels's"
  WHERE
    attr = 3 AND kind = 'interval'
) AS l
JOIN (
  SELECT
    *
  FROM "temp"."main"."wk metrics domain's"
  WHERE
    attr = 3
) AS d
  ON d.num >= l.lo AND d.num <= l.hi
UNION ALL
SELECT
  l.attr,
  l.label,
  d.value,
  d.num
FROM (
  SELECT
    *
  FROM "temp"."main"."wk metrics labels's"
  WHERE
    attr = 4 AND kind = 'interval'
) AS l
JOIN (
  SELECT
    *
  FROM "temp"."main"."wk metrics domain's"
  WHERE
    attr = 4
) AS d
  ON d.num >= l.lo AND d.num <= l.hi
