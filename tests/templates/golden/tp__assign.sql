/* purpose: TP's assignment: in each cell the `kept` minus `moved` rows with the smallest row ids stay in their QI-group, the others (largest row ids first) join the residue group $r_gid */
/* params: gids, sids, moves, r_gid */
/* returns: creates target(rid, gid, deleted, sa_suppressed); ($gids, $sids, $moves) = rows moved in phases two and three per cell */
/* ref: SPEC §1.7 (the row with the largest row id leaves first), §1.8 (output: remaining QI-groups and R) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk tp assignment 2's" AS
WITH extra AS (
  SELECT
    UNNEST(CAST($gids AS BIGINT[])) AS gid,
    UNNEST(CAST($sids AS BIGINT[])) AS sid,
    UNNEST(CAST($moves AS BIGINT[])) AS moved
), keep AS (
  SELECT
    c.*,
    c.kept - COALESCE(e.moved, 0) AS stay
  FROM "temp"."main"."wk tp cells's" AS c
  LEFT JOIN extra AS e
    ON e.gid = c.gid AND e.sid = c.sid
), placed AS (
  SELECT
    src.rowid AS rid,
    k.gid,
    k.stay,
    ROW_NUMBER() OVER (PARTITION BY k.gid, k.sid ORDER BY src.rowid) AS pos
  FROM "main"."select" AS src
  JOIN keep AS k
    ON src."it's" IS NOT DISTINCT FROM k."k1"
    AND src."a""b" IS NOT DISTINCT FROM k."k2"
    AND src."Zip Code" IS NOT DISTINCT FROM k."k3"
    AND src."select" IS NOT DISTINCT FROM k."k4"
    AND src."ünï" IS NOT DISTINCT FROM k.v
)
SELECT
  CAST(rid AS BIGINT) AS rid,
  CAST(CASE WHEN pos <= stay THEN gid ELSE $r_gid END AS BIGINT) AS gid,
  FALSE AS deleted,
  FALSE AS sa_suppressed
FROM placed
