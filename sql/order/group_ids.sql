-- purpose: the published id of every group an algorithm formed: a seeded random permutation of 1..G (after $base, the ids a stream published already, which keep theirs); groups whose rows are all deleted come last
-- params: seed, base
-- returns: creates target(gid, pub): one row per group id above $base in the assignment; keyed is the identifier keyed (the key's column)
-- ref: DESIGN §6 (group ids are opaque: an algorithm's id, e.g. TP's first row id + 1, would tell where a group's rows sit in the source); _macros/seeded_key.sql
{{ target | create_table }} AS
WITH grp AS (
    SELECT gid AS keyed, {% if deleted %}bool_and(deleted){% else %}false{% endif %} AS gone
    FROM {{ assignment | table }}
    WHERE gid > $base
    GROUP BY gid
)
SELECT keyed AS gid, CAST($base + row_number() OVER (ORDER BY gone, {% include "_macros/seeded_key.sql" %}, keyed) AS BIGINT) AS pub
FROM grp
