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
  (
    (
      COALESCE(pg_temp.ldiv_hash(lab."q1", 32963450154200289), 24335347592574722) # COALESCE(pg_temp.ldiv_hash(lab."q2", 21985202975017819), 3703417712286953) # COALESCE(pg_temp.ldiv_hash(lab."q3", 50260532255638491), 20204658107961554) # COALESCE(pg_temp.ldiv_hash(lab."q4", 36145668429798368), 20597496635259362) # COALESCE(
        pg_temp.ldiv_hash((
          CASE WHEN asg.sa_suppressed THEN NULL ELSE src."ünï" END
        ), 56872094616432545),
        38971618480391516
      ) # COALESCE(pg_temp.ldiv_hash(src."order", 32474657790807887), 41610277659040165)
    ) & 9223372036854775807
  );
ANALYZE "main"."out it's"
