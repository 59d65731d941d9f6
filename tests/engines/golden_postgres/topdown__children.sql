/* purpose: (l,alpha) top-down: what the controller decides on, per candidate child and SA value: the child's verdict, the value's count (from the evaluator's histogram), and, only for the passing children of nodes with a failing child (the rows repair may move), its row ids */
/* params: none */
/* returns: node, child, v, n, ok, rids (unordered; NULL for failing children and where the node's children all pass) */
/* ref: SPEC §3.3 (bad children go back to P; repair takes rows from good children); the group id is the evaluator's (partition/histogram.sql) */
WITH ids AS (
  SELECT
    node,
    child,
    CAST((
      HASHTEXTEXTENDED(
        (
          COALESCE(CAST(LENGTH(CAST(node AS TEXT)) AS TEXT) || ':' || CAST(node AS TEXT), 'N') || '|' || COALESCE(CAST(LENGTH(CAST(child AS TEXT)) AS TEXT) || ':' || CAST(child AS TEXT), 'N')
        ),
        0
      ) & 9223372036854775807
    ) >> 1 AS BIGINT) AS gid
  FROM (
    SELECT DISTINCT
      node,
      child
    FROM "pg_temp"."wk td candidates's"
  ) AS ldiv_sq0
), judged AS (
  SELECT
    ids.node,
    ids.child,
    ids.gid,
    COALESCE(vd.ok, FALSE) AS ok
  FROM ids
  LEFT JOIN "pg_temp"."wk td verdict's" AS vd
    ON vd.gid = ids.gid
), repairable AS (
  SELECT
    node
  FROM judged
  GROUP BY
    node
  HAVING
    BOOL_OR(NOT ok)
), donors AS (
  SELECT
    j.node,
    j.child
  FROM judged AS j
  WHERE
    j.ok
    AND EXISTS(
      SELECT
        1
      FROM repairable AS r
      WHERE
        r.node = j.node
    )
), rid_lists AS (
  SELECT
    c.node,
    c.child,
    CAST(c.a1 AS TEXT) AS v,
    ARRAY_AGG(c.rid) AS rids
  FROM "pg_temp"."wk td candidates's" AS c
  WHERE
    EXISTS(
      SELECT
        1
      FROM donors AS d
      WHERE
        d.node = c.node
        AND (
          d.child IS NULL
        ) = (
          c.child IS NULL
        )
        AND COALESCE(CAST(d.child AS TEXT), '') = COALESCE(CAST(c.child AS TEXT), '')
    )
  GROUP BY
    c.node,
    c.child,
    CAST(c.a1 AS TEXT)
)
SELECT
  j.node,
  j.child,
  h.v,
  h.n,
  j.ok,
  rl.rids
FROM judged AS j
JOIN "pg_temp"."td case_hist" AS h
  ON h.gid = j.gid AND h.s = 1
LEFT JOIN rid_lists AS rl
  ON rl.node = j.node
  AND (
    rl.child IS NULL
  ) = (
    j.child IS NULL
  )
  AND COALESCE(CAST(rl.child AS TEXT), '') = COALESCE(CAST(j.child AS TEXT), '')
  AND (
    rl.v IS NULL
  ) = (
    h.v IS NULL
  )
  AND COALESCE(CAST(rl.v AS TEXT), '') = COALESCE(CAST(h.v AS TEXT), '')
