-- purpose: the shared masks (compose/shared.sql) of two releases alone, as releases 1 and 2
-- params: none
-- returns: creates target(word, a1, a2) (words neither of the two shares are absent)
-- ref: docs/decisions/0005-composition-check.md ("Pairs"); pair (shape): the two releases' positions, 1-based
{{ target | create_table }} AS
SELECT word, {{ ('a' ~ pair[0]) | ident }} AS {{ 'a1' | ident }}, {{ ('a' ~ pair[1]) | ident }} AS {{ 'a2' | ident }}
FROM {{ shared | table }}
WHERE {{ ('a' ~ pair[0]) | ident }} <> 0 OR {{ ('a' ~ pair[1]) | ident }} <> 0
