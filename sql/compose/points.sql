-- purpose: the distinct QI vectors of the attacker's targets (as value codes), numbered
-- params: none
-- returns: creates target(pid, v1..vk)
-- ref: docs/decisions/0005-composition-check.md; DESIGN §5 (compress first: the check works per distinct vector, not per row)
{{ target | create_table }} AS
SELECT row_number() OVER (ORDER BY {{ vs | idents }}) AS pid, {{ vs | idents }}
FROM (SELECT DISTINCT {{ vs | idents }} FROM {{ keys | table }}) AS d
