DROP TABLE IF EXISTS "pg_temp"."wk td route 2's";
/* purpose: (l,alpha) top-down: the empty table of the round's decisions per candidate child: the node its rows go to, and the attribute (1-based) and level that node specializes next (attr 0: the node is final) */
/* params: none */
/* returns: creates target(node, child, dest, attr, level), filled by the controller */
/* ref: SPEC §3.3 (good children become nodes; bad ones go back to the parent, which is output) */
CREATE TABLE "pg_temp"."wk td route 2's" (
  node BIGINT NOT NULL,
  child TEXT,
  dest BIGINT NOT NULL,
  attr INT NOT NULL,
  level INT NOT NULL
)
