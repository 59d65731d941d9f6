/* purpose: whether a written release's two partitions (by group id, by QI label vector) are the same partition: from the release aggregate, the number of its distinct (group id, label vector) pairs, of group ids among them and of label vectors among them; all three equal means every group id carries exactly one label vector and no two group ids share one */
/* params: none */
/* returns: one row (pairs, groups, label_vectors) */
/* ref: DESIGN §6 (the model holds by group id and by QI labels); issue 12 (when the partitions are one, one histogram verifies both); NULL labels compare equal, as in release/verify_hist.sql's ranks */
WITH p AS (
  SELECT DISTINCT
    gid,
    "q1",
    "q2",
    "q3",
    "q4"
  FROM "pg_temp"."wk aggregate's"
)
SELECT
  COUNT(*) AS pairs,
  COUNT(DISTINCT gid) AS groups,
  (
    SELECT
      COUNT(*)
    FROM (
      SELECT DISTINCT
        "q1",
        "q2",
        "q3",
        "q4"
      FROM p
    ) AS q
  ) AS label_vectors
FROM p
