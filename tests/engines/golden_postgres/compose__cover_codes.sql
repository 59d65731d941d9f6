DROP TABLE IF EXISTS "pg_temp"."wk compose cover's";
/* purpose: one release's cover relation as integer codes: which target values every label of the release covers */
/* params: none */
/* returns: creates target(attr, label, value): attr the release's QI position, label the label's code (metrics/labels.sql), value the target value's code (value_codes.sql) */
/* ref: docs/decisions/0005-composition-check.md; metrics/cover.sql (the cover); at (shape): the targets' QI position of each release QI */
CREATE TABLE "pg_temp"."wk compose cover's" AS
SELECT
  cv.attr,
  lab.code AS label,
  d.code AS value
FROM "pg_temp"."wk metrics cover's" AS cv
JOIN "pg_temp"."wk metrics labels's" AS lab
  ON lab.attr = cv.attr AND lab.label = cv.label
JOIN "pg_temp"."wk compose codes's" AS d
  ON d.attr = CASE cv.attr WHEN 1 THEN 1 WHEN 2 THEN 2 WHEN 3 THEN 3 WHEN 4 THEN 4 END
  AND d.value = cv.value;
ANALYZE "pg_temp"."wk compose cover's"
