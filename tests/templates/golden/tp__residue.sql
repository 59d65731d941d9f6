/* purpose: per SA value after TP phase one: its count in the table and in the residue R¹, with the number of QI-groups and of QI-groups that keep rows */
/* params: none */
/* returns: sid, v (the SA value as text), total, residue, groups (max gid), kept_groups (groups and kept_groups repeated on every row), in sid order */
/* ref: SPEC §1.1 (T must be l-eligible: name the most frequent value), §1.4 (Cor. 5.9: R¹ l-eligible ⇒ optimal) */
WITH g AS (
  SELECT
    MAX(gid) AS groups,
    COUNT(DISTINCT gid) FILTER(WHERE
      kept > 0) AS kept_groups
  FROM "temp"."main"."wk tp cells's"
)
SELECT
  c.sid,
  CAST(ANY_VALUE(c.v) AS TEXT) AS v,
  CAST(SUM(c.n) AS BIGINT) AS total,
  CAST(SUM(c.n - c.kept) AS BIGINT) AS residue,
  ANY_VALUE(g.groups) AS groups,
  ANY_VALUE(g.kept_groups) AS kept_groups
FROM "temp"."main"."wk tp cells's" AS c, g
GROUP BY
  c.sid
ORDER BY
  c.sid
