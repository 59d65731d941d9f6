DROP TABLE IF EXISTS "pg_temp"."wk renumbered's";
/* purpose: a work table whose gid column holds the published group ids (sql/order/group_ids.sql); ids not in the map (a stream's earlier groups) stay */
/* params: none */
/* returns: creates target(<columns>) with gid replaced; is_gid (per column) marks the gid column */
/* ref: ldiv_db/pipeline/opaque.py (every table of a release that carries group ids is renumbered by the same map) */
CREATE TABLE "pg_temp"."wk renumbered's" AS
SELECT
  t."rid",
  CAST(COALESCE(m.pub, t.gid) AS BIGINT) AS gid,
  t."deleted",
  t."sa_suppressed"
FROM "pg_temp"."wk seeded assignment's" AS t
LEFT JOIN "pg_temp"."wk published ids's" AS m
  ON m.gid = t.gid;
ANALYZE "pg_temp"."wk renumbered's"
