DROP TABLE IF EXISTS "pg_temp"."wk td candidates 2's";
/* purpose: (l,alpha) top-down, one round over all active nodes: every row's candidate child, i.e. its value one hierarchy level down on the attribute its node specializes */
/* params: hids */
/* returns: creates target(rid, node, child, a1); a candidate child is a (node, child) pair; a NULL QI value (with --null-as-value) has the NULL child: NULL is a value of its own, a leaf right below the root */
/* ref: SPEC §3.3 (specialize(P): rows of P split by their child value one level down) */
CREATE TABLE "pg_temp"."wk td candidates 2's" AS
WITH picked AS (
  SELECT
    act.rid,
    act.node,
    act.attr,
    act.level,
    CASE act.attr
      WHEN 1
      THEN CAST(src."it's" AS TEXT)
      WHEN 2
      THEN CAST(src."a""b" AS TEXT)
      WHEN 3
      THEN CAST(src."Zip Code" AS TEXT)
      WHEN 4
      THEN CAST(src."select" AS TEXT)
    END AS leaf,
    src."ünï" AS a1
  FROM "pg_temp"."wk td active's" AS act
  JOIN "main"."select" AS src
    ON (
      CAST((
        (
          CAST(CAST(src.ctid AS TEXT) AS POINT)
        )[0]
      ) AS BIGINT) * 65536 + CAST((
        (
          CAST(CAST(src.ctid AS TEXT) AS POINT)
        )[1]
      ) AS BIGINT) - 1
    ) = act.rid
)
SELECT
  p.rid,
  p.node,
  lv.label AS child,
  p.a1
FROM picked AS p
LEFT JOIN ldiv.hierarchy_level AS lv
  ON lv.hierarchy_id = (
    (
      CAST(%(hids)s AS BIGINT[])
    )
  )[p.attr]
  AND lv.level = p.level
  AND lv.leaf = p.leaf;
ANALYZE "pg_temp"."wk td candidates 2's"
