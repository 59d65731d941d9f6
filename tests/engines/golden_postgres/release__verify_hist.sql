DROP TABLE IF EXISTS "pg_temp"."wk hist's";
/* purpose: the compressed partition of a written release for its verification, from the release aggregate: per group (equal group id, or equal QI label vector) and SA, the count of every SA value */
/* params: none */
/* returns: creates target(gid, gid2, s, v, unknown, n) as partition/histogram.sql builds it (one_row_each: by group id, with one SA, when the release was written with one label vector per group id (pipeline/verify.py one_vector_per_group) or release/same_partition.sql found one — the aggregate's rows are then one per group id and SA value, and are taken without aggregating): by group id, gid = gid2 = the group id as written (an integer: release/write.sql's); by labels with hash_ids, gid and gid2 are two hashes of the label vector q1..qd (partition/histogram.sql's, so partition/gid_check.sql finds a collision), else both the dense rank of the label vector */
/* ref: DESIGN §6 (the model holds on the written table, by group id and by QI labels as an attacker groups them); same ids as partition/group_keys.sql (raw_id, hashed, ranked); hashing the labels costs half of ranking them, the group id needs neither (issue 12) */
CREATE TABLE "pg_temp"."wk hist's" AS
SELECT
  CAST((
    (
      COALESCE(pg_temp.ldiv_hash("q1", 31565978154320661), 7543343189686326) # COALESCE(pg_temp.ldiv_hash("q2", 70870475532305851), 62452762661371233) # COALESCE(pg_temp.ldiv_hash("q3", 43950643238855390), 20568759471374425) # COALESCE(pg_temp.ldiv_hash("q4", 65081266400474975), 24590370196509114)
    ) & 9223372036854775807
  ) >> 1 AS BIGINT) AS gid,
  CAST((
    (
      COALESCE(pg_temp.ldiv_hash("q1", 41866637979928421), 26063243464609475) # COALESCE(pg_temp.ldiv_hash("q2", 55699176436906730), 69577165633933557) # COALESCE(pg_temp.ldiv_hash("q3", 69755431934507538), 54521352686616167) # COALESCE(pg_temp.ldiv_hash("q4", 38145830008994748), 48717305715736069)
    ) & 9223372036854775807
  ) >> 1 AS BIGINT) AS gid2,
  1 AS s,
  CAST("s1" AS TEXT) AS v,
  "s1" IS NULL AS unknown,
  CAST(SUM(n) AS BIGINT) AS n
FROM "pg_temp"."wk aggregate's"
GROUP BY
  1,
  2,
  3,
  4,
  5;
ANALYZE "pg_temp"."wk hist's"
