DROP TABLE IF EXISTS "pg_temp"."wk dec sa rows 2's";
/* purpose: the empty work table of the SA-table rows this release writes (new groups and grown groups), one VARCHAR column per SA */
/* params: none */
/* returns: creates target(gid, s1..sk) */
/* ref: SPEC §4.1 (SA-table: each SA column of a group sorted, not aligned) */
CREATE TABLE "pg_temp"."wk dec sa rows 2's" (
  gid BIGINT,
  "s1" TEXT,
  "s2" TEXT
)
