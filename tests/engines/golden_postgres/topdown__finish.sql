/* purpose: (l,alpha) top-down: record the rows that reached their output node this round (rows of children routed to a final node, and rows repair moved to the parent) */
/* params: none */
/* returns: inserts into final(rid, node) */
/* ref: SPEC §3.3 (O.append(P); a node with every attribute at a leaf has no children) */
INSERT INTO "pg_temp"."wk td final's" (
  rid,
  node
)
SELECT
  c.rid,
  COALESCE(m.dest, r.dest)
FROM "pg_temp"."wk td candidates's" AS c
JOIN "pg_temp"."wk td route's" AS r
  ON r.node = c.node
  AND (
    r.child IS NULL
  ) = (
    c.child IS NULL
  )
  AND COALESCE(CAST(r.child AS TEXT), '') = COALESCE(CAST(c.child AS TEXT), '')
LEFT JOIN "pg_temp"."wk td moved's" AS m
  ON m.rid = c.rid
WHERE
  NOT m.rid IS NULL OR r.attr = 0
