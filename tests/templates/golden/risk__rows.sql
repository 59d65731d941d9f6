/* purpose: write the per-row risk table of `ldiv risk --rows-out`: every row's class keys, its class size, prosecutor risk 1/|class|, whether it is a sample unique and whether its risk exceeds the threshold (exactly: threshold_den > threshold_num·|class|); with a population table also its population class size and journalist risk */
/* params: threshold_num, threshold_den */
/* returns: nothing (creates the table) */
/* ref: ldiv_db/risks/command.py (written in one transaction, a new table only: ldiv_db/core/ownership.py check_new_table); the keys are ldiv_db/core/classes.py's class_keys */
CREATE TABLE "main"."risk rows's" AS
WITH sized AS (
  SELECT
    "it's",
    "a""b",
    "Zip Code",
    "select",
    COUNT(*) OVER (PARTITION BY "it's", "a""b", "Zip Code", "select") AS class_size
  FROM "main"."select"
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
  s."it's",
  s."a""b",
  s."Zip Code",
  s."select",
  s.class_size AS "class_size",
  1.0 / s.class_size AS "prosecutor_risk",
  s.class_size = 1 AS "sample_unique",
  COALESCE(p.pf, 0) AS "population_size",
  CASE WHEN p.pf > 0 THEN 1.0 / p.pf END AS "journalist_risk",
  $threshold_den > $threshold_num * s.class_size AS "above_threshold"
FROM sized AS s
LEFT JOIN population_classes AS p
  ON CAST(s."it's" AS TEXT) IS NOT DISTINCT FROM CAST(p."it's" AS TEXT)
  AND CAST(s."a""b" AS TEXT) IS NOT DISTINCT FROM CAST(p."a""b" AS TEXT)
  AND CAST(s."Zip Code" AS TEXT) IS NOT DISTINCT FROM CAST(p."Zip Code" AS TEXT)
  AND CAST(s."select" AS TEXT) IS NOT DISTINCT FROM CAST(p."select" AS TEXT)
