DROP TABLE IF EXISTS "pg_temp"."wk td active 2's";
/* purpose: (l,alpha) top-down: the empty per-round plan, one row per active row: its node, the attribute the node specializes next (1-based QI position) and the hierarchy level one step down */
/* params: none */
/* returns: creates target(rid, node, attr, level), filled by the controller */
/* ref: SPEC §3.3 (Algorithm 1; multi-attribute round-robin [D]) */
CREATE TABLE "pg_temp"."wk td active 2's" (
  rid BIGINT NOT NULL,
  node BIGINT NOT NULL,
  attr INT NOT NULL,
  level INT NOT NULL
)
