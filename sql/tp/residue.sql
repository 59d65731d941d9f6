-- purpose: per SA id after TP phase one: its count in the table and in the residue R¹, with the number of QI-groups, of QI-groups that keep rows, and of hash collisions
-- params: none
-- returns: sid, total, residue, groups, max_gid, kept_groups, collisions (the last four repeated on every row), in sid order
-- ref: SPEC §1.1 (T must be l-eligible), §1.4 (Cor. 5.9: R¹ l-eligible ⇒ optimal)
WITH g AS (
    SELECT
        count(*) FILTER (WHERE lead) AS groups,
        max(gid) AS max_gid,
        count(*) FILTER (WHERE lead AND h_star > 0) AS kept_groups,
        count(*) FILTER (WHERE collision) AS collisions
    FROM {{ cells | table }}
)
SELECT
    c.sid,
    CAST(sum(c.n) AS BIGINT) AS total,
    CAST(sum(c.n - c.kept) AS BIGINT) AS residue,
    any_value(g.groups) AS groups,
    any_value(g.max_gid) AS max_gid,
    any_value(g.kept_groups) AS kept_groups,
    any_value(g.collisions) AS collisions
FROM {{ cells | table }} AS c, g
GROUP BY c.sid
ORDER BY c.sid
