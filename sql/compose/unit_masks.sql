-- purpose: the SA values of every unit of one release (compose/units.sql) as bit masks per word: a class's own masks, and for a target covered by several classes the union (OR) of theirs
-- params: none
-- returns: creates target(uid, word, mask)
-- ref: docs/decisions/0005-composition-check.md (the attacker's union of the covering classes' SA values, per release)
{{ target | create_table }} AS
SELECT cm.cid AS uid, cm.word, cm.mask
FROM {{ masks | table }} AS cm
UNION ALL
SELECT u.uid, cm.word, bit_or(cm.mask) AS mask
FROM {{ units | table }} AS u
JOIN {{ pairs | table }} AS pc ON pc.pid = u.pid
JOIN {{ masks | table }} AS cm ON cm.cid = pc.cid
WHERE u.uid < 0
GROUP BY u.uid, cm.word
