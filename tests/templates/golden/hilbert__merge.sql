/* purpose: TP+: TP's assignment with the residue's rows moved to the Hilbert groups of the split: the rows outside group $scope_gid as they are, then the split's rows (every row of that group, split_rows' contract) */
/* params: scope_gid */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: SPEC §1.12 (TP+ = TP, then Hilbert on R; the star-free QI-groups stay as they are); the reconciliation checks every */
/*      source row is assigned exactly once. Two scans, no join: on PostgreSQL a left join of the assignment with the split */
/*      cost more */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk tp plus's" AS
SELECT
  rid,
  gid,
  deleted,
  sa_suppressed
FROM "temp"."main"."wk tp assignment's"
WHERE
  gid <> $scope_gid
UNION ALL
SELECT
  rid,
  gid,
  deleted,
  sa_suppressed
FROM "temp"."main"."wk hilbert split's"
