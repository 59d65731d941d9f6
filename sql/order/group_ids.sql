-- purpose: the published id of every group an algorithm formed: a seeded random permutation of 1..G (after $base, the ids a stream published already, which keep theirs); groups whose rows are all deleted come last
-- params: seed, base
-- returns: creates target(gid, pub): one row per group id above $base in the assignment
-- ref: DESIGN §6 (group ids are opaque: an algorithm's id, e.g. TP's first row id + 1, would tell where a group's rows sit in the source); _macros/seeded_key.sql
{{ target | create_table }} AS
WITH ldiv_keyed AS (
    SELECT gid AS ldiv_k, {% if deleted %}bool_and(deleted){% else %}false{% endif %} AS gone
    FROM {{ assignment | table }}
    WHERE gid > $base
    GROUP BY gid
),
{% include "_macros/seeded_key.sql" %}

SELECT ldiv_k AS gid, CAST($base + row_number() OVER (ORDER BY gone, ldiv_key, ldiv_k) AS BIGINT) AS pub
FROM ldiv_keys
