/* purpose: the QI-groups that keep rows in TP+'s assignment of its staying rows (tp/assign.sql with staying_only), each once */
/* params: none */
/* returns: gid (one row per group id of staying) */
/* ref: ldiv_db/algorithms/tp/__init__.py _Published (TP+ numbers its groups by the group-id rule itself: every group of the run, these and the residue's) */
SELECT DISTINCT
  gid
FROM "pg_temp"."wk tp staying's"
