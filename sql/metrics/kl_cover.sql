-- purpose: the cover relation of the KL computation as integer codes: which domain values every release label stands for
-- params: none
-- returns: rows (attr, label, value) with attr 1-based, label and value 0-based codes (labels and domain values numbered per attribute in text order)
-- ref: SPEC §0.7 (cover(v)); the codes match metrics/kl_points.sql and metrics/kl_patterns.sql
WITH dom AS (
    SELECT attr, value, CAST(row_number() OVER (PARTITION BY attr ORDER BY value) - 1 AS INTEGER) AS code
    FROM {{ domain | table }}
),
lab AS (
    SELECT attr, label, CAST(row_number() OVER (PARTITION BY attr ORDER BY label) - 1 AS INTEGER) AS code
    FROM {{ labels | table }}
)
SELECT cv.attr, lab.code AS label, dom.code AS value
FROM {{ cover | table }} AS cv
JOIN lab ON lab.attr = cv.attr AND lab.label = cv.label
JOIN dom ON dom.attr = cv.attr AND dom.value = cv.value
ORDER BY cv.attr, lab.code, dom.code
