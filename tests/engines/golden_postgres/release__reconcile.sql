/* purpose: reconcile a release with its source: every source row assigned exactly once, published + deleted = input, and per SA value the published + deleted + SA-suppressed counts equal the source counts; the published side is read from the release aggregate (release/aggregate.sql) of the written table */
/* params: none */
/* returns: rows_in, assigned, distinct_assigned, published, deleted, sa_suppressed, output_rows, sa_mismatches */
/* ref: DESIGN §6 (nothing lost: counts reconcile exactly); issue 12 (one pass over the written table). Each side is counted per SA value before the sides are summed: summed row by row, PostgreSQL gathered every source and aggregate row into one process; the */
/*      source rows that are deleted or SA-suppressed are found by a semi-join, whose small side is the assignment's few such */
/*      rows (as a join, PostgreSQL hashed the whole source for them); a row assigned */
/*      twice is counted once here and found by distinct_assigned. rid_bits (default none): the (least, greatest) row id the */
/*      assignment holds (release/published_count.sql), on an engine that counts integers in a range as a bitmap */
/*      (Database.bitmap_count_range, DuckDB's bitstring_agg): the same distinct count without a hash table of every row id */
WITH src AS (
  SELECT
    COUNT(*) AS n
  FROM "main"."select"
), asg AS (
  SELECT
    COUNT(*) AS assigned,
    COUNT(DISTINCT rid) AS distinct_assigned,
    COUNT(*) FILTER(WHERE
      NOT deleted) AS published,
    COUNT(*) FILTER(WHERE
      deleted) AS deleted,
    COUNT(*) FILTER(WHERE
      sa_suppressed AND NOT deleted) AS sa_suppressed
  FROM "pg_temp"."wk assignment's"
), outp AS (
  SELECT
    CAST(COALESCE(SUM(n), 0) AS BIGINT) AS n
  FROM "pg_temp"."wk out aggregate's"
), mism AS (
  SELECT
    COUNT(*) AS n
  FROM (
    SELECT
      1 AS s,
      v,
      SUM(d) AS d
    FROM (
      SELECT
        CAST("ünï" AS TEXT) AS v,
        COUNT(*) AS d
      FROM "main"."select"
      GROUP BY
        1
      UNION ALL
      SELECT
        CAST(agg."s1" AS TEXT),
        -SUM(agg.n)
      FROM "pg_temp"."wk out aggregate's" AS agg
      GROUP BY
        1
      UNION ALL
      SELECT
        CAST(src."ünï" AS TEXT),
        -COUNT(*)
      FROM "main"."select" AS src
      WHERE
        (
          CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
        ) IN (
          SELECT
            asg.rid
          FROM "pg_temp"."wk assignment's" AS asg
          WHERE
            asg.deleted OR asg.sa_suppressed
        )
      GROUP BY
        1
      UNION ALL
      SELECT
        NULL,
        COUNT(*)
      FROM "pg_temp"."wk assignment's" AS asg
      WHERE
        asg.sa_suppressed AND NOT asg.deleted
    ) AS ldiv_sq1
    GROUP BY
      v
    HAVING
      SUM(d) <> 0
  ) AS ldiv_sq0
)
SELECT
  src.n AS rows_in,
  asg.assigned,
  asg.distinct_assigned,
  asg.published,
  asg.deleted,
  asg.sa_suppressed,
  outp.n AS output_rows,
  mism.n AS sa_mismatches
FROM src, asg, outp, mism
