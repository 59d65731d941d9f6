/* purpose: TP phase one in closed form: the QI-groups × SA ids with their counts, and the count each cell keeps, min(n, H*) with H* the group's cap */
/* params: l */
/* hints: many-groups */
/* returns: creates target(gid, sid, g, n, kept, h_star, lead, collision): gid = 1 + the 0-based rank of the group's first row in the tie order (tp/rows.sql: keyed, the seeded key's order, ranked here; else the seeded copy's row ids, as they are), so gid orders the QI-groups by first appearance in that order; n - kept rows of the cell go to the residue R; lead marks one cell per group; collision = the group's rows disagree on g2 (two QI vectors share the hash g: rebuild tp/rows.sql with exact ids) */
/* ref: SPEC §1.4 (H* = max{H ≤ h : Σ_v min(Q(v), H) ≥ l·H} = min(h, min_{0≤j<l} ⌊S_j/(l−j)⌋), S_j = the group's size minus its j largest counts; H* = 0 with fewer than l values), §0.6 (groups in first-appearance order); Xiao/Yi/Tao 2010 §5.2 */
/*      the QI-groups' figures grouped from the cells and joined back, not windows over them: DuckDB plans those windows as */
/*      a grouping joined back too, but computes the cells twice for it (decision 0033, Round 10: TP+) */
/*      keyed: only the groups' first rows are looked up in the ranks, one narrow window over the ties (a rank of every row */
/*      in tp/rows.sql sorted its whole rows for it: decision 0033, Round 15: TP+) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk tp cells 2's" AS
WITH cell AS (
  SELECT
    g,
    sid,
    COUNT(*) AS n,
    MIN(tie) AS first_tie,
    MIN(g2) AS g2_lo,
    MAX(g2) AS g2_hi
  FROM "temp"."main"."wk tp rows's"
  GROUP BY
    g,
    sid
), qi_first AS (
  SELECT
    g,
    MIN(first_tie) AS first_tie,
    COUNT(*) AS values_in_group,
    MIN(sid) AS lead_sid,
    MIN(g2_lo) <> MAX(g2_hi) AS collision
  FROM cell
  GROUP BY
    g
), qi_group AS (
  SELECT
    q.g,
    r.rank_1 AS gid,
    q.values_in_group,
    q.lead_sid,
    q.collision
  FROM qi_first AS q
  JOIN (
    SELECT
      tie,
      ROW_NUMBER() OVER (ORDER BY tie) AS rank_1
    FROM "temp"."main"."wk tp rows's"
  ) AS r
    ON r.tie = q.first_tie
), grp AS (
  SELECT
    c.g,
    c.sid,
    c.n,
    q.gid,
    q.values_in_group,
    c.sid = q.lead_sid AS lead,
    q.collision
  FROM cell AS c
  JOIN qi_group AS q
    ON q.g = c.g
), stats AS (
  SELECT
    gid,
    MAX(n) AS h,
    SUM(n) AS size,
    ARRAY_AGG(n ORDER BY n DESC) AS counts
  FROM grp
  WHERE
    values_in_group >= $l
  GROUP BY
    gid
), cap AS (
  SELECT
    s.gid,
    LEAST(
      ANY_VALUE(s.h),
      MIN(
        (
          s.size - COALESCE(LIST_SUM(LIST_SLICE(s.counts, 1, j.j)), 0)
        ) // (
          $l - j.j
        )
      )
    ) AS h_star
  FROM stats AS s
  CROSS JOIN RANGE(0, $l) AS j(j)
  GROUP BY
    s.gid
)
SELECT
  CAST(grp.gid AS BIGINT) AS gid,
  grp.sid,
  grp.g,
  grp.n,
  CAST(LEAST(grp.n, COALESCE(cap.h_star, 0)) AS BIGINT) AS kept,
  CAST(COALESCE(cap.h_star, 0) AS BIGINT) AS h_star,
  grp.lead,
  grp.collision
FROM grp
LEFT JOIN cap
  ON cap.gid = grp.gid
