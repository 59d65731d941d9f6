-- purpose: reconcile a written Decomposition+ release: every pool row published once or kept back, the three tables' row counts, group sizes of QID- and SA-table, the marginals' SA counts against the published source rows, and the SA-table's counts against the marginals corrected by the noise log
-- params: name, release, first_release, sa_names
-- returns: received, arriving, assigned, distinct_assigned, assigned_in_pool, retained, qid_rows, sa_rows, marginal_rows, previous_rows, stream_rows, size_mismatches, marginal_mismatches, sa_mismatches, noise
-- ref: issue 7 (rows published + retained = rows received; SA counts; the noise counted); DESIGN §6
WITH pool AS (
    SELECT count(*) AS received, count(*) FILTER (WHERE arrived = $release) AS arriving FROM {{ pool | table }}
), asg AS (
    SELECT count(*) AS assigned, count(DISTINCT a.rk) AS distinct_assigned, count(p.rk) AS assigned_in_pool
    FROM {{ assignment | table }} AS a LEFT JOIN {{ pool | table }} AS p ON p.rk = a.rk
), ret AS (
    SELECT count(*) AS n FROM {{ retained | table }}
), q AS (
    SELECT count(*) AS n FROM {{ qid | table }}
), s AS (
    SELECT count(*) AS n FROM {{ sa_table | table }}
), m AS (
    SELECT count(*) AS n FROM {{ marginals | table }}
), prev AS (
{% if previous_qid %}
    SELECT count(*) AS n FROM {{ previous_qid | table }}
{% else %}
    SELECT 0 AS n
{% endif %}
), stream AS (
{% if pending %}
    -- staged: the stream's earlier rows (none for a first release: a replaced stream's are forgotten when
    -- this one is recorded) and the new ones, waiting in pending
    SELECT (SELECT count(*) FROM ldiv.stream_row WHERE name = $name AND $release > 1)
         + (SELECT count(*) FROM {{ pending | table }}) AS n
{% else %}
    SELECT count(*) AS n FROM ldiv.stream_row WHERE name = $name
{% endif %}
), sizes AS (
    SELECT count(*) AS n FROM (
        SELECT g FROM (
            SELECT {{ group_column | ident }} AS g, 1 AS d FROM {{ qid | table }}
            UNION ALL
            SELECT {{ group_column | ident }}, -1 FROM {{ sa_table | table }}
        ) GROUP BY g HAVING sum(d) <> 0
    )
), noise_all AS (
    SELECT sa, replaced, noise FROM {{ noise | table }}
    UNION ALL
    SELECT sa, replaced, noise FROM ldiv.noise
    WHERE release_id IN (SELECT release_id FROM ldiv.release WHERE name = $name AND release_id >= $first_release)
), marg AS (
    SELECT count(*) AS n FROM (
{% for c in sa %}
        SELECT {{ loop.index }} AS s, v FROM (
            SELECT CAST({{ c | ident }} AS VARCHAR) AS v, 1 AS d FROM {{ marginals | table }}
{% if previous_marginals %}
            UNION ALL
            SELECT CAST({{ c | ident }} AS VARCHAR), -1 FROM {{ previous_marginals | table }}
{% endif %}
            UNION ALL
            SELECT CAST(p.{{ slots[loop.index0] | ident }} AS VARCHAR), -1
            FROM {{ pool | table }} AS p JOIN {{ assignment | table }} AS a ON a.rk = p.rk
        ) GROUP BY v HAVING sum(d) <> 0
{% if not loop.last %}
        UNION ALL
{% endif %}
{% endfor %}
    )
), sav AS (
    SELECT count(*) AS n FROM (
{% for c in sa %}
        SELECT {{ loop.index }} AS s, v FROM (
            SELECT CAST({{ c | ident }} AS VARCHAR) AS v, 1 AS d FROM {{ sa_table | table }}
            UNION ALL
            SELECT CAST({{ c | ident }} AS VARCHAR), -1 FROM {{ marginals | table }}
            UNION ALL
            SELECT replaced, 1 FROM noise_all WHERE sa = $sa_names[{{ loop.index }}]
            UNION ALL
            SELECT noise, -1 FROM noise_all WHERE sa = $sa_names[{{ loop.index }}]
        ) GROUP BY v HAVING sum(d) <> 0
{% if not loop.last %}
        UNION ALL
{% endif %}
{% endfor %}
    )
)
SELECT pool.received, pool.arriving, asg.assigned, asg.distinct_assigned, asg.assigned_in_pool, ret.n AS retained,
       q.n AS qid_rows, s.n AS sa_rows, m.n AS marginal_rows, prev.n AS previous_rows, stream.n AS stream_rows,
       sizes.n AS size_mismatches, marg.n AS marginal_mismatches, sav.n AS sa_mismatches,
       (SELECT count(*) FROM {{ noise | table }}) AS noise
FROM pool, asg, ret, q, s, m, prev, stream, sizes, marg, sav
