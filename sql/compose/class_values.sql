-- purpose: one release's classes as the attacker reads them: every distinct QI label vector with the SA values published under it; a class holding an unknown (NULL) SA stands for every value
-- params: none
-- returns: creates target(cid, l1..lk, sa); cid numbers the label vectors
-- ref: docs/decisions/0001-composition-check.md; the class is the label vector (rows of several groups under the same labels are one class to whoever reads only the labels, and the attacker's union takes them all anyway)
{{ target | create_table }} AS
WITH pub AS (
    SELECT DISTINCT {% for c in rqi %}CAST({{ c | ident }} AS VARCHAR) AS {{ ls[loop.index0] | ident }}, {% endfor %}CAST({{ sa | ident }} AS VARCHAR) AS sa
    FROM {{ release | table }}
),
cls AS (
    SELECT dense_rank() OVER (ORDER BY {{ ls | idents }}) AS cid, {{ ls | idents }}, sa FROM pub
)
SELECT cid, {{ ls | idents }}, sa FROM cls WHERE sa IS NOT NULL
UNION
SELECT cls.cid, {{ ls | idents('cls') }}, d.sa
FROM cls CROSS JOIN {{ domain | table }} AS d
WHERE cls.sa IS NULL
