-- purpose: the targets (compose/keys.sql) as two releases alone see them: the presence of the pair's releases as releases 1 and 2, the rows counted per distinct pair
-- params: none
-- returns: creates target(v1..vk, present, n)
-- ref: docs/decisions/0005-composition-check.md ("Pairs"); pair (shape): the two releases' positions (1-based) in keys.sql's present text
{{ target | create_table }} AS
SELECT {{ vs | idents }},
       CAST(substring(present, {{ pair[0] }}, 1) || substring(present, {{ pair[1] }}, 1) AS VARCHAR) AS present,
       CAST(sum(n) AS BIGINT) AS n
FROM {{ keys | table }}
GROUP BY ALL
