/* purpose: the compact state after TP phase one for phases two and three: every cell a QI-group keeps */
/* params: none */
/* returns: gid, sid, kept (kept > 0 only), ordered by gid, sid */
/* ref: SPEC §1.5-1.6 (the decisions run on counts); DESIGN §5 (compress first) */
SELECT
  gid,
  sid,
  kept
FROM "pg_temp"."wk tp cells's"
WHERE
  kept > 0
ORDER BY
  gid,
  sid
