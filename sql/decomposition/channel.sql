-- purpose: the inference-channel check of a continuous release, before anything is written: rows of any earlier release of the stream that would change (or lose) their group, rows published twice, value copies an earlier group's SA-table would lose, and earlier groups that would gain rows (the difference of two releases would show a new member's QIs and SA values)
-- params: name, first_release, previous_id
-- returns: moved, republished, sa_changed, grown
-- ref: SPEC §4.3 (a published group never changes membership; a row stays in its group); Byun et al.
WITH earlier AS (
    SELECT DISTINCT source_rowid AS rk, group_id AS gid FROM ldiv.release_row
    WHERE release_id IN (SELECT release_id FROM ldiv.release WHERE name = $name AND release_id >= $first_release)
), now AS (
    SELECT source_rowid AS rk, group_id AS gid FROM ldiv.release_row WHERE release_id = $previous_id
    UNION ALL
    SELECT rk, gid FROM {{ assignment | table }}
), lost AS (
    SELECT count(*) AS n FROM (
{% for c in sa %}
        SELECT g, v FROM (
            SELECT {{ group_column | ident }} AS g, CAST({{ c | ident }} AS VARCHAR) AS v, 1 AS d
            FROM {{ previous_sa | table }} WHERE {{ group_column | ident }} IN (SELECT gid FROM {{ sa_rows | table }})
            UNION ALL
            SELECT gid, {{ ('s' ~ loop.index) | ident }}, -1 FROM {{ sa_rows | table }}
        ) GROUP BY g, v HAVING sum(d) > 0
{% if not loop.last %}
        UNION ALL
{% endif %}
{% endfor %}
    )
)
SELECT (SELECT count(*) FROM earlier AS e WHERE NOT EXISTS (SELECT 1 FROM now AS n WHERE n.rk = e.rk AND n.gid = e.gid)) AS moved,
       (SELECT count(*) FROM {{ assignment | table }} WHERE rk IN (SELECT rk FROM earlier)) AS republished,
       lost.n AS sa_changed,
       (SELECT count(DISTINCT gid) FROM {{ assignment | table }} WHERE gid IN (SELECT gid FROM earlier)) AS grown
FROM lost
