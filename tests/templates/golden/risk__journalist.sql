/* purpose: each class of a table matched with the population's class of equal QI values: how many classes have each pair (size in the table, size in the population); values compare as text, NULL equal to NULL */
/* params: none */
/* returns: sample_size, population_size (0: no population row has the class's QI values), classes */
/* ref: ldiv_db/risks/figures.py (journalist and marketer risk against a population table; El Emam & Dankar 2008, JAMIA 15(5)); the table's keys are ldiv_db/core/classes.py's class_keys, matched on their QI part (pairs) */
WITH sample_classes AS (
  SELECT
    "it's",
    "a""b",
    "Zip Code",
    "select",
    COUNT(*) AS f
  FROM "main"."select"
  GROUP BY
    "it's",
    "a""b",
    "Zip Code",
    "select"
), population_classes AS (
  SELECT
    "it's",
    "a""b",
    "Zip Code",
    "select",
    COUNT(*) AS pf
  FROM "main"."select"
  GROUP BY
    "it's",
    "a""b",
    "Zip Code",
    "select"
)
SELECT
  s.f AS sample_size,
  COALESCE(p.pf, 0) AS population_size,
  COUNT(*) AS classes
FROM sample_classes AS s
LEFT JOIN population_classes AS p
  ON CAST(s."it's" AS TEXT) IS NOT DISTINCT FROM CAST(p."it's" AS TEXT)
  AND CAST(s."a""b" AS TEXT) IS NOT DISTINCT FROM CAST(p."a""b" AS TEXT)
  AND CAST(s."Zip Code" AS TEXT) IS NOT DISTINCT FROM CAST(p."Zip Code" AS TEXT)
  AND CAST(s."select" AS TEXT) IS NOT DISTINCT FROM CAST(p."select" AS TEXT)
GROUP BY
  s.f,
  COALESCE(p.pf, 0)
ORDER BY
  sample_size,
  population_size
