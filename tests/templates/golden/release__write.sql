/* purpose: write the published table: QI labels as text (from a labels table), SA as published (NULL where suppressed), the group id; deleted rows left out */
/* params: none */
/* returns: creates output(<QI columns>, <SA columns>, <kept columns>, <group column>) ordered by group, then within a group by a hash of the row's published values; with group_column None (--no-group-column) without the group column, ordered by the hash alone (an order by group would reveal the groups) */
/* ref: DESIGN §6 (outputs in one transaction; the published table carries no source row ids, and its order nothing of the source's: rows in the source's order within a group would let whoever knows that order, e.g. a source sorted by name or admission date, tell a group's rows apart, which l-diversity assumes nobody can) */
/*      labels_by: 'gid' or 'rid', the labels table's key; release/write_suppress.sql writes a suppression release */
CREATE TABLE "main"."out it's" AS
SELECT
  lab."q1" AS "it's",
  lab."q2" AS "a""b",
  lab."q3" AS "Zip Code",
  lab."q4" AS "select",
  CASE WHEN asg.sa_suppressed THEN NULL ELSE src."ünï" END AS "ünï",
  src."order" AS "order",
  asg.gid AS "group id"
FROM "temp"."main"."wk assignment's" AS asg
JOIN "main"."select" AS src
  ON src.rowid = asg.rid
JOIN "temp"."main"."wk labels's" AS lab
  ON lab.gid = asg.gid
WHERE
  NOT asg.deleted
ORDER BY
  asg.gid,
  HASH(
    lab."q1",
    lab."q2",
    lab."q3",
    lab."q4",
    CASE WHEN asg.sa_suppressed THEN NULL ELSE src."ünï" END,
    src."order",
    'ldiv-order'
  )
