DROP TABLE IF EXISTS "pg_temp"."wk td nodes 2's";
/* purpose: (l,alpha) top-down: the empty table of output nodes: group id and hierarchy level per QI */
/* params: none */
/* returns: creates target(node, gid, lv1..lvd), filled by the controller */
/* ref: SPEC §3.3 (each node of O is published at its node value) */
CREATE TABLE "pg_temp"."wk td nodes 2's" (
  node BIGINT NOT NULL,
  gid BIGINT NOT NULL,
  "lv1" INT NOT NULL,
  "lv2" INT NOT NULL,
  "lv3" INT NOT NULL,
  "lv4" INT NOT NULL
)
