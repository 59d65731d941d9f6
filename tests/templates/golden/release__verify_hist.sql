/* purpose: the compressed partition of a written release for its verification, from the release aggregate: per group (equal group id, or equal QI label vector) and SA, the count of every SA value */
/* params: none */
/* returns: creates target(gid, gid2, s, v, unknown, n) as partition/histogram.sql builds it (one_row_each: by group id, with one SA, when the release was written with one label vector per group id (pipeline/verify.py one_vector_per_group) or release/same_partition.sql found one — the aggregate's rows are then one per group id and SA value, and are taken without aggregating): by group id, gid = gid2 = the group id as written (an integer: release/write.sql's); by labels with hash_ids, gid and gid2 are two hashes of the label vector q1..qd (partition/histogram.sql's, so partition/gid_check.sql finds a collision), else both the dense rank of the label vector */
/* ref: DESIGN §6 (the model holds on the written table, by group id and by QI labels as an attacker groups them); same ids as partition/group_keys.sql (raw_id, hashed, ranked); hashing the labels costs half of ranking them, the group id needs neither (issue 12) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk hist's" AS
SELECT
  CAST(HASH("q1", "q2", "q3", "q4") >> 1 AS BIGINT) AS gid,
  CAST(HASH(
    'ldiv:' || CAST("q1" AS TEXT),
    'ldiv:' || CAST("q2" AS TEXT),
    'ldiv:' || CAST("q3" AS TEXT),
    'ldiv:' || CAST("q4" AS TEXT)
  ) >> 1 AS BIGINT) AS gid2,
  1 AS s,
  CAST("s1" AS TEXT) AS v,
  "s1" IS NULL AS unknown,
  CAST(SUM(n) AS BIGINT) AS n
FROM "temp"."main"."wk aggregate's"
GROUP BY ALL
