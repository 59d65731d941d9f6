-- purpose: whether a written release's two partitions (by group id, by QI label vector) are the same partition: from the release aggregate, the number of group ids, of label vectors and of (group id, label vector) pairs; all three equal means every group id carries exactly one label vector and no two group ids share one
-- params: none
-- returns: one row (groups, label_vectors, pairs)
-- ref: DESIGN §6 (the model holds by group id and by QI labels); issue 12 (when the partitions are one, one histogram verifies both); NULL labels compare equal, as in release/verify_hist.sql's ranks
SELECT
    (SELECT count(*) FROM (SELECT DISTINCT gid FROM {{ aggregate | table }}) AS g) AS groups,
    (SELECT count(*) FROM (SELECT DISTINCT {{ qi | idents }} FROM {{ aggregate | table }}) AS q) AS label_vectors,
    (SELECT count(*) FROM (SELECT DISTINCT gid, {{ qi | idents }} FROM {{ aggregate | table }}) AS p) AS pairs
