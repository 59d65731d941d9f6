/* purpose: (l,alpha) top-down: the next round's plan: the rows of good children that stay active, at their new node, with the attribute and level it specializes next */
/* params: none */
/* returns: creates target(rid, node, attr, level) */
/* ref: SPEC §3.3 (S' += good children); multi-attribute round-robin [D] */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk td active 3's" AS
SELECT
  c.rid,
  r.dest AS node,
  r.attr,
  r.level
FROM "temp"."main"."wk td candidates's" AS c
JOIN "temp"."main"."wk td route's" AS r
  ON r.node = c.node AND r.child IS NOT DISTINCT FROM c.child
ANTI JOIN "temp"."main"."wk td moved's" AS m
  ON m.rid = c.rid
WHERE
  r.attr > 0
