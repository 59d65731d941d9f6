/* purpose: Hilbert coordinates of rows: per QI the 0-based rank of the row's value in the attribute's domain order (numeric: ascending; with a taxonomy: left-to-right leaf order; otherwise sorted values), the domain sizes, and an SA id; all rows, or only those of one group of an assignment */
/* params: hids, r_gid */
/* returns: rid, sid, c1..cd (ranks), n1..nd (domain sizes, repeated), ordered by rid */
/* ref: SPEC §1.12(a) (coordinates over the attribute's domain in T, not only over R); Ghinita et al. VLDB 2007 (reconstructed) */
WITH "dom1" AS (
  SELECT
    d.v,
    CAST(DENSE_RANK() OVER (ORDER BY leaf.node_id, d.v) - 1 AS BIGINT) AS r,
    CAST(COUNT(*) OVER () AS BIGINT) AS size
  FROM (
    SELECT DISTINCT
      "it's" AS v
    FROM "main"."select"
  ) AS d
  LEFT JOIN ldiv.hierarchy_node AS leaf
    ON leaf.hierarchy_id = (
      (
        CAST(%(hids)s AS BIGINT[])
      )
    )[1]
    AND leaf.height = 0
    AND leaf.label = CAST(d.v AS TEXT)
), "dom2" AS (
  SELECT
    d.v,
    CAST(DENSE_RANK() OVER (ORDER BY d.v) - 1 AS BIGINT) AS r,
    CAST(COUNT(*) OVER () AS BIGINT) AS size
  FROM (
    SELECT DISTINCT
      "a""b" AS v
    FROM "main"."select"
  ) AS d
), "dom3" AS (
  SELECT
    d.v,
    CAST(DENSE_RANK() OVER (ORDER BY leaf.node_id, d.v) - 1 AS BIGINT) AS r,
    CAST(COUNT(*) OVER () AS BIGINT) AS size
  FROM (
    SELECT DISTINCT
      "Zip Code" AS v
    FROM "main"."select"
  ) AS d
  LEFT JOIN ldiv.hierarchy_node AS leaf
    ON leaf.hierarchy_id = (
      (
        CAST(%(hids)s AS BIGINT[])
      )
    )[3]
    AND leaf.height = 0
    AND leaf.label = CAST(d.v AS TEXT)
), "dom4" AS (
  SELECT
    d.v,
    CAST(DENSE_RANK() OVER (ORDER BY d.v) - 1 AS BIGINT) AS r,
    CAST(COUNT(*) OVER () AS BIGINT) AS size
  FROM (
    SELECT DISTINCT
      "select" AS v
    FROM "main"."select"
  ) AS d
), sa_dom AS (
  SELECT
    "ünï" AS v,
    CAST(DENSE_RANK() OVER (
      ORDER BY (
        CAST(CAST('x' || ENCODE(TIDSEND(MIN(ctid)), 'hex') AS BIT(48)) AS BIGINT) - 1
      )
    ) AS BIGINT) AS sid
  FROM "main"."select"
  GROUP BY
    1
)
SELECT
  CAST((
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS BIGINT) AS rid,
  s.sid,
  "dom1".r AS "c1",
  "dom2".r AS "c2",
  "dom3".r AS "c3",
  "dom4".r AS "c4",
  "dom1".size AS "n1",
  "dom2".size AS "n2",
  "dom3".size AS "n3",
  "dom4".size AS "n4"
FROM "main"."select" AS src
JOIN "pg_temp"."wk tp assignment's" AS asg
  ON asg.rid = (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  )
  AND asg.gid = (
    CAST(%(r_gid)s AS BIGINT)
  )
JOIN sa_dom AS s
  ON (
    src."ünï" IS NULL
  ) = (
    s.v IS NULL
  )
  AND COALESCE(CAST(src."ünï" AS TEXT), '') = COALESCE(CAST(s.v AS TEXT), '')
JOIN "dom1"
  ON (
    src."it's" IS NULL
  ) = (
    "dom1".v IS NULL
  )
  AND COALESCE(CAST(src."it's" AS TEXT), '') = COALESCE(CAST("dom1".v AS TEXT), '')
JOIN "dom2"
  ON (
    src."a""b" IS NULL
  ) = (
    "dom2".v IS NULL
  )
  AND COALESCE(CAST(src."a""b" AS TEXT), '') = COALESCE(CAST("dom2".v AS TEXT), '')
JOIN "dom3"
  ON (
    src."Zip Code" IS NULL
  ) = (
    "dom3".v IS NULL
  )
  AND COALESCE(CAST(src."Zip Code" AS TEXT), '') = COALESCE(CAST("dom3".v AS TEXT), '')
JOIN "dom4"
  ON (
    src."select" IS NULL
  ) = (
    "dom4".v IS NULL
  )
  AND COALESCE(CAST(src."select" AS TEXT), '') = COALESCE(CAST("dom4".v AS TEXT), '')
ORDER BY
  rid
