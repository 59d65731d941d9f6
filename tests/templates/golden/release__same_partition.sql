/* purpose: whether a written release's two partitions (by group id, by QI label vector) are the same partition: from the release aggregate, the number of group ids, of label vectors and of (group id, label vector) pairs; all three equal means every group id carries exactly one label vector and no two group ids share one */
/* params: none */
/* returns: one row (groups, label_vectors, pairs) */
/* ref: DESIGN §6 (the model holds by group id and by QI labels); issue 12 (when the partitions are one, one histogram verifies both); NULL labels compare equal, as in release/verify_hist.sql's ranks */
SELECT
  (
    SELECT
      COUNT(*)
    FROM (
      SELECT DISTINCT
        gid
      FROM "temp"."main"."wk aggregate's"
    ) AS g
  ) AS groups,
  (
    SELECT
      COUNT(*)
    FROM (
      SELECT DISTINCT
        "q1",
        "q2",
        "q3",
        "q4"
      FROM "temp"."main"."wk aggregate's"
    ) AS q
  ) AS label_vectors,
  (
    SELECT
      COUNT(*)
    FROM (
      SELECT DISTINCT
        gid,
        "q1",
        "q2",
        "q3",
        "q4"
      FROM "temp"."main"."wk aggregate's"
    ) AS p
  ) AS pairs
