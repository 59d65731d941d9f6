-- purpose: the cover relation of the KL computation as integer codes: which domain values every release label stands for
-- params: none
-- returns: rows (attr, label, value) with attr 1-based, label and value the 0-based codes of metrics/labels.sql and metrics/domain.sql
-- ref: SPEC §0.7 (cover(v)); the codes match metrics/kl_inputs.sql
SELECT cv.attr, lab.code AS label, dom.code AS value
FROM {{ cover | table }} AS cv
JOIN {{ labels | table }} AS lab ON lab.attr = cv.attr AND lab.label = cv.label
JOIN {{ domain | table }} AS dom ON dom.attr = cv.attr AND dom.value = cv.value
