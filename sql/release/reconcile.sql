-- purpose: reconcile a release with its source: every source row assigned exactly once, published + deleted = input, and per SA value the published + deleted + SA-suppressed counts equal the source counts; the published side is read from the release aggregate (release/aggregate.sql) of the written table
-- params: none
-- returns: rows_in, assigned, distinct_assigned, published, deleted, sa_suppressed, output_rows, sa_mismatches
-- ref: DESIGN §6 (nothing lost: counts reconcile exactly); issue 12 (one pass over the written table). Each side is counted per SA value before the sides are summed: summed row by row, PostgreSQL gathered every source and aggregate row into one process; the
--      source rows that are deleted or SA-suppressed are found by a semi-join, whose small side is the assignment's few such
--      rows (as a join, PostgreSQL hashed the whole source for them); a row assigned
--      twice is counted once here and found by distinct_assigned. rid_bits (default none): the (least, greatest) row id the
--      assignment holds (release/published_count.sql), on an engine that counts integers in a range as a bitmap
--      (Database.bitmap_count_range, DuckDB's bitstring_agg): the same distinct count without a hash table of every row id
{% set rid_bits = rid_bits | default(none) %}
WITH src AS (
    SELECT count(*) AS n FROM {{ source | table }}
), asg AS (
    SELECT count(*) AS assigned,
           {% if rid_bits %}bit_count(bitstring_agg(rid, {{ rid_bits[0] }}, {{ rid_bits[1] }})){% else %}count(DISTINCT rid){% endif %} AS distinct_assigned,
           count(*) FILTER (WHERE NOT deleted) AS published,
           count(*) FILTER (WHERE deleted) AS deleted,
           count(*) FILTER (WHERE sa_suppressed AND NOT deleted) AS sa_suppressed
    FROM {{ assignment | table }}
), outp AS (
    SELECT CAST(coalesce(sum(n), 0) AS BIGINT) AS n FROM {{ aggregate | table }}
), mism AS (
    SELECT count(*) AS n FROM (
{% for c in sa %}
        SELECT {{ loop.index }} AS s, v, sum(d) AS d FROM (
            SELECT CAST({{ c | ident }} AS VARCHAR) AS v, count(*) AS d FROM {{ source | table }} GROUP BY 1
            UNION ALL
            SELECT CAST(agg.{{ ('s' ~ loop.index) | ident }} AS VARCHAR), -sum(agg.n) FROM {{ aggregate | table }} AS agg GROUP BY 1
            UNION ALL
            SELECT CAST(src.{{ c | ident }} AS VARCHAR), -count(*)
            FROM {{ source | table }} AS src
            WHERE src.rowid IN (SELECT asg.rid FROM {{ assignment | table }} AS asg WHERE asg.deleted OR asg.sa_suppressed)
            GROUP BY 1
            UNION ALL
            SELECT NULL, count(*) FROM {{ assignment | table }} AS asg WHERE asg.sa_suppressed AND NOT asg.deleted
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
