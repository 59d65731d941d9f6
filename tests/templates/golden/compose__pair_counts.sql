/* purpose: per pair of releases, the source rows the two alone leave fewer SA values than the smaller of their l values, every pair (or every pair holding one release) in one statement */
/* params: ls, most */
/* returns: a, b, below (one row per pair counted, a < b the releases' positions) */
/* ref: docs/decisions/0005-composition-check.md ("Pairs in a fixed number of statements"). A pair's union masks are a release's shared mask (compose/shared.sql) OR its unit's own (compose/pair_units.sql), so the values both leave a combination are: the two shared masks' AND over every word (gp), plus on each word of one's own mask what its own bits add against the other's shared mask (y, each way), plus on the words both have own masks what neither of those counted (x). A release that does not hold the rows takes part as every value: the other's values (gs + v), or the whole domain when neither holds them. Only the combinations that all the releases leave fewer than most values are read (a pair leaves a row at least those). ls: the releases' l in their order; most: the largest l of a pair counted; m (shape): the releases; only (shape): the position of the release whose pairs alone are counted, or none for every pair */
WITH rel AS (
  SELECT
    1 AS r,
    LIST_EXTRACT($ls, 1) AS l
  UNION ALL
  SELECT
    2 AS r,
    LIST_EXTRACT($ls, 2) AS l
), pr AS (
  SELECT
    x.r AS a,
    y.r AS b,
    LEAST(x.l, y.l) AS l
  FROM rel AS x
  JOIN rel AS y
    ON x.r < y.r
), t AS (
  SELECT
    cmb,
    present,
    SUM(n) AS n,
    MIN(left_all) AS left_all
  FROM "temp"."main"."wk compose left's"
  WHERE
    left_all < $most
  GROUP BY
    cmb,
    present
), s AS (
  SELECT
    1 AS r,
    word,
    "a1" AS mask
  FROM "temp"."main"."wk compose shared's"
  WHERE
    "a1" <> 0
  UNION ALL
  SELECT
    2 AS r,
    word,
    "a2" AS mask
  FROM "temp"."main"."wk compose shared's"
  WHERE
    "a2" <> 0
), gs AS (
  SELECT
    r,
    SUM(BIT_COUNT(mask)) AS g
  FROM s
  GROUP BY
    r
), gp AS (
  SELECT
    pr.a,
    pr.b,
    SUM(BIT_COUNT(x.mask & y.mask)) AS g
  FROM pr
  JOIN s AS x
    ON x.r = pr.a
  JOIN s AS y
    ON y.r = pr.b AND y.word = x.word
  GROUP BY
    pr.a,
    pr.b
), v AS (
  SELECT
    o.cmb,
    o.r,
    SUM(BIT_COUNT(o.mask | COALESCE(s.mask, 0)) - BIT_COUNT(COALESCE(s.mask, 0))) AS v
  FROM "temp"."main"."wk compose own's" AS o
  LEFT JOIN s
    ON s.r = o.r AND s.word = o.word
  GROUP BY
    o.cmb,
    o.r
), y AS (
  SELECT
    o.cmb,
    o.r,
    q.r AS q,
    SUM(
      BIT_COUNT(q.mask & (
        o.mask | COALESCE(s.mask, 0)
      )) - BIT_COUNT(q.mask & COALESCE(s.mask, 0))
    ) AS y
  FROM "temp"."main"."wk compose own's" AS o
  JOIN s AS q
    ON q.word = o.word AND q.r <> o.r
  LEFT JOIN s
    ON s.r = o.r AND s.word = o.word
  GROUP BY
    o.cmb,
    o.r,
    q.r
), x AS (
  SELECT
    oa.cmb,
    oa.r AS a,
    ob.r AS b,
    SUM(
      BIT_COUNT((
        oa.mask | COALESCE(sa.mask, 0)
      ) & (
        ob.mask | COALESCE(sb.mask, 0)
      )) - BIT_COUNT(COALESCE(sb.mask, 0) & (
        oa.mask | COALESCE(sa.mask, 0)
      )) - BIT_COUNT(COALESCE(sa.mask, 0) & (
        ob.mask | COALESCE(sb.mask, 0)
      )) + BIT_COUNT(COALESCE(sa.mask, 0) & COALESCE(sb.mask, 0))
    ) AS x
  FROM "temp"."main"."wk compose own's" AS oa
  JOIN "temp"."main"."wk compose own's" AS ob
    ON ob.cmb = oa.cmb AND ob.word = oa.word AND ob.r > oa.r
  LEFT JOIN s AS sa
    ON sa.r = oa.r AND sa.word = oa.word
  LEFT JOIN s AS sb
    ON sb.r = ob.r AND sb.word = oa.word
  GROUP BY
    oa.cmb,
    oa.r,
    ob.r
), tp AS (
  SELECT
    t.cmb,
    t.n,
    pr.a,
    pr.b,
    pr.l,
    SUBSTRING(t.present, pr.a, 1) = '1' AS pa,
    SUBSTRING(t.present, pr.b, 1) = '1' AS pb
  FROM t
  JOIN pr
    ON t.left_all < pr.l
), d AS (
  SELECT
    COUNT(*) AS size
  FROM "temp"."main"."wk compose domain's"
), lp AS (
  SELECT
    tp.a,
    tp.b,
    tp.n,
    tp.l,
    CASE
      WHEN tp.pa AND tp.pb
      THEN COALESCE(gp.g, 0) + COALESCE(x.x, 0) + COALESCE(ya.y, 0) + COALESCE(yb.y, 0)
      WHEN tp.pa
      THEN COALESCE(ga.g, 0) + COALESCE(va.v, 0)
      WHEN tp.pb
      THEN COALESCE(gb.g, 0) + COALESCE(vb.v, 0)
      ELSE d.size
    END AS left_pair
  FROM tp
  CROSS JOIN d
  LEFT JOIN gp
    ON gp.a = tp.a AND gp.b = tp.b
  LEFT JOIN x
    ON x.cmb = tp.cmb AND x.a = tp.a AND x.b = tp.b
  LEFT JOIN y AS ya
    ON ya.cmb = tp.cmb AND ya.r = tp.a AND ya.q = tp.b
  LEFT JOIN y AS yb
    ON yb.cmb = tp.cmb AND yb.r = tp.b AND yb.q = tp.a
  LEFT JOIN gs AS ga
    ON ga.r = tp.a
  LEFT JOIN gs AS gb
    ON gb.r = tp.b
  LEFT JOIN v AS va
    ON va.cmb = tp.cmb AND va.r = tp.a
  LEFT JOIN v AS vb
    ON vb.cmb = tp.cmb AND vb.r = tp.b
)
SELECT
  pr.a,
  pr.b,
  CAST(COALESCE(SUM(lp.n) FILTER(WHERE
    lp.left_pair < lp.l), 0) AS BIGINT) AS below
FROM pr
LEFT JOIN lp
  ON lp.a = pr.a AND lp.b = pr.b
GROUP BY
  pr.a,
  pr.b
ORDER BY
  pr.a,
  pr.b
