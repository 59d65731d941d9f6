/* purpose: (l,alpha) top-down, first round: every row of the source at the root node (0), specializing its first attribute one level down */
/* params: attr, level */
/* returns: inserts into target(rid, node, attr, level) */
/* ref: SPEC §3.3 (start with every row at the root) */
INSERT INTO "pg_temp"."wk td active's" (
  rid,
  node,
  attr,
  level
)
SELECT
  (
    CAST((
      (
        CAST(CAST(ctid AS TEXT) AS POINT)
      )[0]
    ) AS BIGINT) * 65536 + CAST((
      (
        CAST(CAST(ctid AS TEXT) AS POINT)
      )[1]
    ) AS BIGINT) - 1
  ),
  0,
  (
    CAST(%(attr)s AS BIGINT)
  ),
  (
    CAST(%(level)s AS BIGINT)
  )
FROM "main"."select"
