DROP TABLE IF EXISTS "pg_temp"."wk dec assignment 2's";
/* purpose: the empty work table of the rows this release publishes and their SA-group ids */
/* params: none */
/* returns: creates target(rk, gid) */
/* ref: SPEC §4.2 (SA-groups) */
CREATE TABLE "pg_temp"."wk dec assignment 2's" (
  rk BIGINT,
  gid BIGINT
)
