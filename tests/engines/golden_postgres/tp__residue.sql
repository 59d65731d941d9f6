/* purpose: per SA id after TP phase one: its count in the table and in the residue R¹, with the number of QI-groups, of QI-groups that keep rows, and of hash collisions */
/* params: none */
/* returns: sid, total, residue, groups, max_gid, kept_groups, collisions (the last four repeated on every row), in sid order */
/* ref: SPEC §1.1 (T must be l-eligible), §1.4 (Cor. 5.9: R¹ l-eligible ⇒ optimal) */
WITH g AS (
  SELECT
    COUNT(*) FILTER(WHERE
      lead) AS groups,
    MAX(gid) AS max_gid,
    COUNT(*) FILTER(WHERE
      lead AND h_star > 0) AS kept_groups,
    COUNT(*) FILTER(WHERE
      collision) AS collisions
  FROM "pg_temp"."wk tp cells's"
)
SELECT
  c.sid,
  CAST(SUM(c.n) AS BIGINT) AS total,
  CAST(SUM(c.n - c.kept) AS BIGINT) AS residue,
  (
    ARRAY_AGG(g.groups) FILTER(WHERE
      g.groups IS NOT NULL)
  )[1] AS groups,
  (
    ARRAY_AGG(g.max_gid) FILTER(WHERE
      g.max_gid IS NOT NULL)
  )[1] AS max_gid,
  (
    ARRAY_AGG(g.kept_groups) FILTER(WHERE
      g.kept_groups IS NOT NULL)
  )[1] AS kept_groups,
  (
    ARRAY_AGG(g.collisions) FILTER(WHERE
      g.collisions IS NOT NULL)
  )[1] AS collisions
FROM "pg_temp"."wk tp cells's" AS c, g
GROUP BY
  c.sid
ORDER BY
  c.sid
