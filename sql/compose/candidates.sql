-- purpose: what one release leaves a target: for every target vector, the union of the SA values of the classes covering it, as bit masks per word
-- params: none
-- returns: creates target(pid, word, mask)
-- ref: docs/decisions/0005-composition-check.md (the attacker's union of the covering classes' SA values, per release)
{{ target | create_table }} AS
SELECT pc.pid, cm.word, bit_or(cm.mask) AS mask
FROM {{ pairs | table }} AS pc
JOIN {{ masks | table }} AS cm ON cm.cid = pc.cid
GROUP BY pc.pid, cm.word
