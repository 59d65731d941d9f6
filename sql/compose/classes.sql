-- purpose: one release's distinct QI label vectors, numbered as in its class values
-- params: none
-- returns: creates target(cid, l1..lk)
-- ref: docs/decisions/0001-composition-check.md
{{ target | create_table }} AS
SELECT DISTINCT cid, {{ ls | idents }}
FROM {{ values | table }}
