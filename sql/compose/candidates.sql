-- purpose: what one release leaves a target: for every target vector, the union of the SA values of the classes covering it
-- params: none
-- returns: creates target(pid, sa)
-- ref: docs/decisions/0001-composition-check.md (the attacker's union of the covering classes' SA values, per release)
{{ target | create_table }} AS
SELECT DISTINCT pc.pid, cv.sa
FROM {{ pairs | table }} AS pc
JOIN {{ values | table }} AS cv ON cv.cid = pc.cid
