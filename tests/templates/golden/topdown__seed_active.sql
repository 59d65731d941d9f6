/* purpose: (l,alpha) top-down, first round: every row of the source at the root node (0), specializing its first attribute one level down */
/* params: attr, level */
/* returns: inserts into target(rid, node, attr, level) */
/* ref: SPEC §3.3 (start with every row at the root) */
INSERT INTO "temp"."main"."wk td active's" (
  rid,
  node,
  attr,
  level
)
SELECT
  rowid,
  0,
  $attr,
  $level
FROM "main"."select"
