/* purpose: partition/shapes.sql (with the model's verdict read inline, or without a verdict) over the group statistics of partition/source_stats.sql computed inside the same statement, never stored: the shapes, the violations and the worst groups of a check in one statement from the source */
/* params: worst, ls, c_num, c_den, min_values, parts, part */
/* returns: as partition/shapes.sql */
/* ref: DESIGN §5 (compress first; fewer passes); issue 57 item 1, round 4: on a small DuckDB source (Database.inline_statistics) a check's statistics were a table written, read by one statement and dropped; here they are that statement's MATERIALIZED CTE (named by stats). The recursive profile, when the distinct l allows one, is partition/source_profile.sql */
WITH "stats" AS MATERIALIZED (
  SELECT
    gid,
    s,
    size,
    n_values,
    h,
    CAST(known AS BIGINT) AS known,
    CASE WHEN n_values = 0 THEN NULL ELSE GREATEST(0.0, LN(known) - n_ln_n / known) END AS entropy,
    collided,
    counts,
    ones
  FROM (
    SELECT
      gid,
      s,
      CAST(SUM(CAST(n AS DOUBLE)) AS BIGINT) AS size,
      COUNT(*) FILTER(WHERE
        NOT unknown) AS n_values,
      CAST(COALESCE(MAX(n) FILTER(WHERE
        NOT unknown), 0) AS BIGINT) AS h,
      COALESCE(SUM(CAST(n AS DOUBLE)) FILTER(WHERE
        NOT unknown), 0) AS known,
      SUM(n * LN(n)) FILTER(WHERE
        NOT unknown) AS n_ln_n,
      MIN(gid2) <> MAX(gid2) AS collided,
      ARRAY_AGG(n) FILTER(WHERE
        NOT unknown AND n > 1) AS counts,
      COUNT(*) FILTER(WHERE
        NOT unknown AND n = 1) AS ones
    FROM (
      SELECT
        CAST(HASH("it's", "a""b") >> 1 AS BIGINT) AS gid,
        CAST(HASH('ldiv:' || CAST("it's" AS TEXT), 'ldiv:' || CAST("a""b" AS TEXT)) >> 1 AS BIGINT) AS gid2,
        1 AS s,
        CAST("ünï" AS TEXT) AS v,
        "ünï" IS NULL AS unknown,
        COUNT(*) AS n
      FROM "main"."select"
      WHERE
        CAST(HASH("it's", "a""b") >> 1 AS BIGINT) % $parts = $part
      GROUP BY
        1,
        3,
        2,
        4,
        5 /* gid and s first: the statistics over these rows group by them */
      UNION ALL
      SELECT
        CAST(HASH("it's", "a""b") >> 1 AS BIGINT) AS gid,
        CAST(HASH('ldiv:' || CAST("it's" AS TEXT), 'ldiv:' || CAST("a""b" AS TEXT)) >> 1 AS BIGINT) AS gid2,
        2 AS s,
        CAST("order" AS TEXT) AS v,
        "order" IS NULL AS unknown,
        COUNT(*) AS n
      FROM "main"."select"
      WHERE
        CAST(HASH("it's", "a""b") >> 1 AS BIGINT) % $parts = $part
      GROUP BY
        1,
        3,
        2,
        4,
        5 /* gid and s first: the statistics over these rows group by them */
    ) AS hs
    GROUP BY
      gid,
      s
  ) AS g
), "verdict" /* purpose: the partition's shapes (per SA, its groups of equal size, with their largest pillar height) and, given a verdict, how many groups and rows violate the model and which groups are the worst, in one statement */ /* params: worst, ls, c_num, c_den, min_values */ /* returns: part, s, size, h, groups, n_values, entropy, collided, gid, severity, place. part 0, one row per SA and class size: s, size, h (the largest pillar height of those groups: the least |G|/h(G) among them is size / h), groups (how many), n_values (their least distinct count), entropy (their least), collided (how many of them have a hashed id two key tuples share: partition/gid_check.sql's count); with a verdict, part 1, one row: groups = the violating groups, size = their rows; part 2, one row per worst group (at most worst; rows in no order): gid, severity, size, place (1 = the worst: severity, then size, then gid) */ /* ref: SPEC §0.2; issue 2 item 7 (frequency l = min |G|/h(G), entropy l = exp(min entropy)); issue 57 item 1 (the partition's summary and the verdict's in one statement of plain aggregates, where two statements joined aggregates); the few shapes are reduced exactly in Python (ldiv_db/core/evaluator.py: shape_summaries); grouped by size alone, not by size and h: as many rows as class sizes, fewer to send and reduce, and the same summary (issue 57 item 1, round 6); with verdict_template (a model's verdict template: privacy/distinct, entropy, frequency, recursive), the verdict is that template's rows read inline as the CTE named verdict instead of a stored table, and ls, c_num, c_den, min_values are its params (those it does not use are not bound): a check's verdict neither written nor read again (issue 57 item 1, round 3) */ AS (
  /* purpose: recursive (c,l)-diversity verdict per group: r1 < c·(r_l + ... + r_q), c = c_num/c_den exactly; fails when q < l */
  /* params: ls, c_num, c_den, min_values */
  /* returns: creates target(gid, size, ok, severity) (target none: the rows, for partition/shapes.sql to read inline); severity = r1 / tail (tail 0 = +inf). counts: the groups' descending counts (partition/group_counts.sql), or with sorted_counts = false the statistics (partition/source_stats.sql: the counts above 1 unordered, and the number of ones), whose counts are sorted here for the groups with at least $min_values values; the ones come last in the descending order: the tail from position l is the listed counts' from l plus the ones, less those ones that are among the first l - 1 */
  /* ref: SPEC §0.2 (recursive (c,l)-diversity; q < l fails); the tails are summed for the groups with a counts row only, those with at least $min_values values (the counts table's bound, the smallest l); the others fail with an infinite severity and are written without a join (PostgreSQL built its join's hash over every group); one_sa = a single SA, whose groups need no second aggregation. tails is MATERIALIZED: PostgreSQL inlined it and summed each */
  /*      group's tail three times, once per use. With the */
  /*      statistics' unordered lists the tails keep the group's statistics they need, and no join finds them again */
  WITH tails AS MATERIALIZED (
    SELECT
      gid,
      s,
      size,
      n_values,
      h,
      CAST(COALESCE(
        LIST_SUM(LIST_SLICE(ARRAY_REVERSE_SORT(counts), LIST_EXTRACT($ls, s), LENGTH(counts))),
        0
      ) + ones - GREATEST(0, LIST_EXTRACT($ls, s) - 1 - COALESCE(LENGTH(counts), 0)) AS INT128) AS tail
    FROM "stats"
    WHERE
      n_values >= $min_values
  ), t AS (
    SELECT
      g.gid,
      g.s,
      g.size,
      FALSE AS ok,
      CAST('infinity' AS DOUBLE) AS severity
    FROM "stats" AS g
    WHERE
      g.n_values < $min_values
    UNION ALL
    SELECT
      g.gid,
      g.s,
      g.size,
      g.n_values >= LIST_EXTRACT($ls, g.s)
      AND CAST(g.h AS INT128) * $c_den < $c_num * g.tail AS ok,
      CASE
        WHEN g.tail = 0
        THEN CAST('infinity' AS DOUBLE)
        ELSE CAST(g.h AS DOUBLE) / CAST(g.tail AS DOUBLE)
      END AS severity
    FROM tails AS g
  )
  SELECT
    gid,
    MAX(size) AS size,
    BOOL_AND(CAST(ok AS BOOLEAN)) AS ok,
    MAX(severity) AS severity
  FROM t
  GROUP BY
    gid
)
SELECT
  0 AS part,
  s,
  CAST(size AS BIGINT) AS size,
  CAST(MAX(h) AS BIGINT) AS h,
  COUNT(*) AS groups,
  MIN(n_values) AS n_values,
  MIN(entropy) AS entropy,
  COUNT(*) FILTER(WHERE
    collided) AS collided,
  CAST(NULL AS BIGINT) AS gid,
  CAST(NULL AS DOUBLE) AS severity,
  CAST(NULL AS BIGINT) AS place
FROM "stats"
GROUP BY
  s,
  size
UNION ALL
SELECT
  1,
  NULL,
  CAST(COALESCE(SUM(size) FILTER(WHERE
    NOT ok), 0) AS BIGINT),
  NULL,
  COUNT(*) FILTER(WHERE
    NOT ok),
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL
FROM "verdict"
UNION ALL
SELECT
  2,
  NULL,
  size,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  gid,
  severity,
  ROW_NUMBER() OVER (ORDER BY severity DESC, size DESC, gid) AS place
FROM (
  SELECT
    gid,
    CAST(severity AS DOUBLE) AS severity,
    CAST(size AS BIGINT) AS size
  FROM "verdict"
  WHERE
    NOT ok
  ORDER BY
    severity DESC,
    size DESC,
    gid
  LIMIT $worst
) AS w
