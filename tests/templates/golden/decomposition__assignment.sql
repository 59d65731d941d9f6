/* purpose: the empty work table of the rows this release publishes and their SA-group ids */
/* params: none */
/* returns: creates target(rk, gid) */
/* ref: SPEC §4.2 (SA-groups) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk dec assignment 2's" (
  rk BIGINT,
  gid BIGINT
)
