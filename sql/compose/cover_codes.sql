-- purpose: one release's cover relation as integer codes: which target values every label of the release covers
-- params: none
-- returns: creates target(attr, label, value): attr the release's QI position, label the label's code (metrics/labels.sql), value the target value's code (value_codes.sql)
-- ref: docs/decisions/0005-composition-check.md; metrics/cover.sql (the cover); at (shape): the targets' QI position of each release QI
{{ target | create_table }} AS
SELECT cv.attr, lab.code AS label, d.code AS value
FROM {{ cover | table }} AS cv
JOIN {{ labels | table }} AS lab ON lab.attr = cv.attr AND lab.label = cv.label
JOIN {{ codes | table }} AS d
  ON d.attr = CASE cv.attr{% for u in at %} WHEN {{ loop.index }} THEN {{ u }}{% endfor %} END
 AND d.value = cv.value
