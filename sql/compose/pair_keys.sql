-- purpose: the targets (compose/keys.sql) as two releases alone see them: the presence of the pair's releases as bits 1 and 2, the rows counted per distinct pair
-- params: none
-- returns: creates target(v1..vk, present, n)
-- ref: docs/decisions/0005-composition-check.md ("Pairs"); bits (shape): the two releases' bits in keys.sql's presence mask
{{ target | create_table }} AS
SELECT {{ vs | idents }},
       CASE WHEN (present & {{ bits[0] }}) <> 0 THEN 1 ELSE 0 END
       + CASE WHEN (present & {{ bits[1] }}) <> 0 THEN 2 ELSE 0 END AS present,
       CAST(sum(n) AS BIGINT) AS n
FROM {{ keys | table }}
GROUP BY ALL
