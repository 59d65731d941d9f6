/* purpose: TP phase one in closed form: the QI-groups × SA values of the source with their counts, and the count each cell keeps, min(n, H*) with H* the group's cap */
/* params: l */
/* returns: creates target(gid, sid, k1..kd, v, n, kept): gid = QI-group id and sid = SA id, both 1-based in first-appearance order; v = the SA value; n - kept rows of the cell go to the residue R */
/* ref: SPEC §1.4 (H* = max{H ≤ h : Σ_v min(Q(v), H) ≥ l·H} = min(h, min_{0≤j<l} ⌊S_j/(l−j)⌋), S_j = the group's size minus its j largest counts; H* = 0 with fewer than l values), §0.6 (first-appearance order); Xiao/Yi/Tao 2010 §5.2 */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk tp cells 2's" AS
WITH cell AS (
  SELECT
    "it's" AS "k1",
    "a""b" AS "k2",
    "Zip Code" AS "k3",
    "select" AS "k4",
    "ünï" AS v,
    COUNT(*) AS n,
    MIN(rowid) AS first_rid
  FROM "main"."select"
  GROUP BY ALL
), grp AS (
  SELECT
    "k1",
    "k2",
    "k3",
    "k4",
    ROW_NUMBER() OVER (ORDER BY MIN(first_rid)) AS gid
  FROM cell
  GROUP BY ALL
), val AS (
  SELECT
    v,
    ROW_NUMBER() OVER (ORDER BY MIN(first_rid)) AS sid
  FROM cell
  GROUP BY
    v
), ids AS (
  SELECT
    grp.gid,
    val.sid,
    cell.*
  FROM cell
  JOIN grp
    ON grp."k1" IS NOT DISTINCT FROM cell."k1"
    AND grp."k2" IS NOT DISTINCT FROM cell."k2"
    AND grp."k3" IS NOT DISTINCT FROM cell."k3"
    AND grp."k4" IS NOT DISTINCT FROM cell."k4"
  JOIN val
    ON val.v IS NOT DISTINCT FROM cell.v
), stats AS (
  SELECT
    gid,
    MAX(n) AS h,
    SUM(n) AS size,
    COUNT(*) AS values_in_group,
    ARRAY_AGG(n ORDER BY n DESC) AS counts
  FROM ids
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
  WHERE
    s.values_in_group >= $l
  GROUP BY
    s.gid
)
SELECT
  ids.gid,
  ids.sid,
  ids."k1",
  ids."k2",
  ids."k3",
  ids."k4",
  ids.v,
  ids.n,
  CAST(LEAST(ids.n, COALESCE(cap.h_star, 0)) AS BIGINT) AS kept
FROM ids
LEFT JOIN cap
  ON cap.gid = ids.gid
