DROP TABLE IF EXISTS "pg_temp"."wk lplus cells 2's";
/* purpose: the empty table of the chosen cut's decisions per histogram cell, filled from the search */
/* params: none */
/* returns: creates target(l1..ld, s, k, g1..gd, gid, n_delete, suppress): cut node per QI, partition, rows to delete, SA suppressed */
/* ref: SPEC §5.3 (suppression per partition); §5.2 (the cut) */
CREATE TABLE "pg_temp"."wk lplus cells 2's" (
  "l1" BIGINT,
  "l2" BIGINT,
  "l3" BIGINT,
  "l4" BIGINT,
  s TEXT,
  k TEXT,
  "g1" BIGINT,
  "g2" BIGINT,
  "g3" BIGINT,
  "g4" BIGINT,
  gid BIGINT,
  n_delete BIGINT,
  suppress BOOLEAN
)
