/* purpose: write the published table: QI labels as text, SA as published (NULL where suppressed), the group id; deleted rows left out */
/* params: none */
/* returns: creates output(<QI columns>, <SA columns>, <group column>) ordered by group and source row */
/* ref: DESIGN §6 (outputs in one transaction; the published table carries no source row ids) */
CREATE TABLE "main"."out it's" AS
SELECT
  lab."q1" AS "it's",
  lab."q2" AS "a""b",
  lab."q3" AS "Zip Code",
  lab."q4" AS "select",
  CASE WHEN asg.sa_suppressed THEN NULL ELSE src."ünï" END AS "ünï",
  src."order" AS "order",
  asg.gid AS "group id"
FROM "pg_temp"."wk assignment's" AS asg
JOIN "main"."select" AS src
  ON (
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) = asg.rid
JOIN "pg_temp"."wk labels's" AS lab
  ON lab.gid = asg.gid
WHERE
  NOT asg.deleted
ORDER BY
  asg.gid,
  asg.rid;
ANALYZE "main"."out it's"
