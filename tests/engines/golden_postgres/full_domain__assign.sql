DROP TABLE IF EXISTS "pg_temp"."wk fd's";
/* purpose: full-domain assignment: each row joins the group of its generalized QI vector (group ids renumbered 1..g); rows of groups the model rejects are deleted (suppressed) */
/* params: none */
/* returns: creates target(rid, gid, deleted, sa_suppressed) */
/* ref: SPEC §0.4; ARX-style record suppression of violating equivalence classes; the group id is the evaluator's (partition/histogram.sql) */
CREATE TABLE "pg_temp"."wk fd's" AS
WITH lab AS (
  SELECT
    rid,
    CAST((
      (
        COALESCE(pg_temp.ldiv_hash("q1", 31565978154320661), 7543343189686326) # COALESCE(pg_temp.ldiv_hash("q2", 70870475532305851), 62452762661371233) # COALESCE(pg_temp.ldiv_hash("q3", 43950643238855390), 20568759471374425) # COALESCE(pg_temp.ldiv_hash("q4", 65081266400474975), 24590370196509114)
      ) & 9223372036854775807
    ) >> 1 AS BIGINT) AS gid
  FROM "pg_temp"."wk row labels's"
), num AS (
  SELECT
    gid,
    ok,
    ROW_NUMBER() OVER (ORDER BY gid) AS group_no
  FROM "pg_temp"."wk verdict's"
)
SELECT
  lab.rid,
  num.group_no AS gid,
  NOT num.ok AS deleted,
  FALSE AS sa_suppressed
FROM lab
JOIN num
  ON num.gid = lab.gid;
ANALYZE "pg_temp"."wk fd's"
