/* purpose: the frequency-of-frequencies of a table's classes (how many classes have each size), for the classes by all the keys (set 0) and, for each further key set, for the classes by that set (the keys without one quasi-identifier: the sample uniques it adds) */
/* params: none */
/* returns: key_set (the index into sets), size, classes (one row per key set and class size, ascending) */
/* ref: ldiv_db/risks/figures.py (prosecutor and marketer risk, sample uniques, per-QI contribution; El Emam & Dankar 2008, JAMIA 15(5)); DESIGN §6 (the keys are ldiv_db/core/classes.py's class_keys: never coarser than the finest partition the table reveals) */
SELECT
  0 AS key_set,
  size,
  COUNT(*) AS classes
FROM (
  SELECT
    COUNT(*) AS size
  FROM "main"."select"
  GROUP BY
    "it's",
    "a""b",
    "Zip Code",
    "select"
) AS per_class_0
GROUP BY
  size
UNION ALL
SELECT
  1 AS key_set,
  size,
  COUNT(*) AS classes
FROM (
  SELECT
    COUNT(*) AS size
  FROM "main"."select"
  GROUP BY
    "a""b",
    "Zip Code",
    "select"
) AS per_class_1
GROUP BY
  size
UNION ALL
SELECT
  2 AS key_set,
  size,
  COUNT(*) AS classes
FROM (
  SELECT
    COUNT(*) AS size
  FROM "main"."select"
) AS per_class_2
GROUP BY
  size
ORDER BY
  key_set,
  size
