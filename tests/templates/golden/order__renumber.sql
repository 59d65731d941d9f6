/* purpose: a work table whose gid column holds the published group ids (sql/order/group_ids.sql); ids not in the map (a stream's earlier groups) stay */
/* params: none */
/* returns: creates target(<columns>) with gid replaced; is_gid (per column) marks the gid column */
/* ref: ldiv_db/pipeline/opaque.py (every table of a release that carries group ids is renumbered by the same map) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk renumbered's" AS
SELECT
  t."rid",
  CAST(COALESCE(m.pub, t.gid) AS BIGINT) AS gid,
  t."deleted",
  t."sa_suppressed"
FROM "temp"."main"."wk seeded assignment's" AS t
LEFT JOIN "temp"."main"."wk published ids's" AS m
  ON m.gid = t.gid
