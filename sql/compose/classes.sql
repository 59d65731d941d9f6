-- purpose: one release's distinct QI label vectors (label codes), numbered as in its class masks
-- params: none
-- returns: creates target(cid, l1..lk)
-- ref: docs/decisions/0005-composition-check.md
{{ target | create_table }} AS
SELECT DISTINCT cid, {{ ls | idents }}
FROM {{ masks | table }}
