DROP TABLE IF EXISTS "pg_temp"."wk group stars's";
/* purpose: an empty table that receives, from Python, the groups whose rows disagree on some QI: per QI whether the group's label is '*' (Definition 1) */
/* params: none */
/* returns: creates target(gid, s1..s<qi_count>); a group not in it has rows that agree on every QI */
/* ref: SPEC §0.5 (Definition 1 of TP); ldiv_db.algorithms.base (Partitioning.group_stars); release/write_suppress.sql (stars) */
CREATE TABLE "pg_temp"."wk group stars's" (
  gid BIGINT NOT NULL,
  "s1" BOOLEAN NOT NULL,
  "s2" BOOLEAN NOT NULL,
  "s3" BOOLEAN NOT NULL
)
