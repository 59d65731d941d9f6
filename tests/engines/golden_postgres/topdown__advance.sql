DROP TABLE IF EXISTS "pg_temp"."wk td active 3's";
/* purpose: (l,alpha) top-down: the next round's plan: the rows of good children that stay active, at their new node, with the attribute and level it specializes next */
/* params: none */
/* returns: creates target(rid, node, attr, level) */
/* ref: SPEC §3.3 (S' += good children); multi-attribute round-robin [D] */
CREATE TABLE "pg_temp"."wk td active 3's" AS
SELECT
  c.rid,
  r.dest AS node,
  r.attr,
  r.level
FROM "pg_temp"."wk td candidates's" AS c
JOIN "pg_temp"."wk td route's" AS r
  ON r.node = c.node
  AND (
    r.child IS NULL
  ) = (
    c.child IS NULL
  )
  AND COALESCE(CAST(r.child AS TEXT), '') = COALESCE(CAST(c.child AS TEXT), '')
WHERE
  r.attr > 0
  AND NOT EXISTS(
    SELECT
      1
    FROM "pg_temp"."wk td moved's" AS m
    WHERE
      m.rid = c.rid
  );
ANALYZE "pg_temp"."wk td active 3's"
