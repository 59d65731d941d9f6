/* purpose: (l,alpha) top-down when no QI can be specialized: every row of the source finished at the root node (0) */
/* params: none */
/* returns: inserts into target(rid, node) */
/* ref: SPEC §3.3 (a node with every attribute at a leaf has no children) */
INSERT INTO "pg_temp"."wk td final's" (
  rid,
  node
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
  0
FROM "main"."select"
