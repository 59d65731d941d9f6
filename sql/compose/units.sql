-- purpose: what one release leaves each target, by reference: the target's covering class when it has one, else a union of its own
-- params: none
-- returns: creates target(pid, uid): uid = the covering class's cid (≥ 1) when exactly one class covers the target vector, else -pid (the union of its covering classes' masks, compose/unit_masks.sql)
-- ref: docs/decisions/0005-composition-check.md ("A class that covers many targets": a class's values are kept once, not copied to every target it covers)
{{ target | create_table }} AS
SELECT pid, CASE WHEN count(*) = 1 THEN min(cid) ELSE -pid END AS uid
FROM {{ pairs | table }}
GROUP BY pid
