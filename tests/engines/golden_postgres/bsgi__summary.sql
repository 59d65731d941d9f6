/* purpose: BSGI's classes counted in SQL: sizes, distinct SA values, repeats, and classes of exactly l rows with l distinct values of every SA */
/* params: l */
/* returns: classes, rows, min_size, max_size, min_distinct, exact_classes, classes_l_plus_1, classes_with_repeats, classes_with_repeated_individuals */
/* ref: SPEC §2.1 (Unique Distinct l-diversity; an incorporated row gives l+1), §2.3 Cor. 2, §2.4 (variants) */
WITH g AS (
  SELECT
    a.gid,
    COUNT(*) AS size,
    COUNT(DISTINCT c.b) AS d1,
    COUNT(DISTINCT c."s2") AS "d2",
    COUNT(DISTINCT c.ind) AS di
  FROM "pg_temp"."wk bsgi assignment's" AS a
  JOIN "pg_temp"."wk bsgi codes's" AS c
    ON c.rid = a.rid
  WHERE
    NOT a.deleted
  GROUP BY
    a.gid
)
SELECT
  COUNT(*) AS classes,
  COALESCE(SUM(size), 0) AS "rows",
  MIN(size) AS min_size,
  MAX(size) AS max_size,
  MIN(LEAST(d1, "d2")) AS min_distinct,
  COUNT(*) FILTER(WHERE
    size = (
      CAST(%(l)s AS BIGINT)
    )
    AND d1 = (
      CAST(%(l)s AS BIGINT)
    )
    AND "d2" = (
      CAST(%(l)s AS BIGINT)
    )) AS exact_classes,
  COUNT(*) FILTER(WHERE
    size = (
      CAST(%(l)s AS BIGINT)
    ) + 1 AND d1 = size AND "d2" = size) AS classes_l_plus_1,
  COUNT(*) FILTER(WHERE
    d1 < size OR "d2" < size) AS classes_with_repeats,
  COUNT(*) FILTER(WHERE
    di < size) AS classes_with_repeated_individuals
FROM g
