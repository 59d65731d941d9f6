DROP TABLE IF EXISTS "pg_temp"."wk dec noise 2's";
/* purpose: the empty work table of the noise this release adds (one row per replaced copy) */
/* params: none */
/* returns: creates target(gid, sa, replaced, noise, distance) */
/* ref: SPEC §4.4 */
CREATE TABLE "pg_temp"."wk dec noise 2's" (
  gid BIGINT,
  sa TEXT,
  replaced TEXT,
  noise TEXT,
  distance DOUBLE PRECISION
)
