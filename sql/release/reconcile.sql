-- purpose: reconcile a release with its source: every source row assigned exactly once, published + deleted = input, and per SA value the published + deleted + SA-suppressed counts equal the source counts
-- params: none
-- returns: rows_in, assigned, distinct_assigned, published, deleted, sa_suppressed, output_rows, sa_mismatches
-- ref: DESIGN §6 (nothing lost: counts reconcile exactly)
WITH src AS (
    SELECT count(*) AS n FROM {{ source | table }}
), asg AS (
    SELECT count(*) AS assigned,
           count(DISTINCT rid) AS distinct_assigned,
           count(*) FILTER (WHERE NOT deleted) AS published,
           count(*) FILTER (WHERE deleted) AS deleted,
           count(*) FILTER (WHERE sa_suppressed AND NOT deleted) AS sa_suppressed
    FROM {{ assignment | table }}
), outp AS (
    SELECT count(*) AS n FROM {{ output | table }}
), mism AS (
    SELECT count(*) AS n FROM (
{% for c in sa %}
        SELECT {{ loop.index }} AS s, v, sum(d) AS d FROM (
            SELECT CAST({{ c | ident }} AS VARCHAR) AS v, 1 AS d FROM {{ source | table }}
            UNION ALL
            SELECT CAST(o.{{ c | ident }} AS VARCHAR), -1 FROM {{ output | table }} AS o
            UNION ALL
            SELECT CAST(src.{{ c | ident }} AS VARCHAR), -1
            FROM {{ assignment | table }} AS asg JOIN {{ source | table }} AS src ON src.rowid = asg.rid
            WHERE asg.deleted OR asg.sa_suppressed
            UNION ALL
            SELECT NULL, 1 FROM {{ assignment | table }} AS asg WHERE asg.sa_suppressed AND NOT asg.deleted
        ) GROUP BY v HAVING sum(d) <> 0
{% if not loop.last %}
        UNION ALL
{% endif %}
{% endfor %}
    )
)
SELECT src.n AS rows_in, asg.assigned, asg.distinct_assigned, asg.published, asg.deleted, asg.sa_suppressed,
       outp.n AS output_rows, mism.n AS sa_mismatches
FROM src, asg, outp, mism
