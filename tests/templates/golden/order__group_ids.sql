/* purpose: the published id of every group an algorithm formed: a seeded random permutation of 1..G (after $base, the ids a stream published already, which keep theirs); groups whose rows are all deleted come last */
/* params: seed, base */
/* returns: creates target(gid, pub): one row per group id above $base in the assignment; keyed is the identifier keyed (the key's column) */
/* ref: DESIGN §6 (group ids are opaque: an algorithm's id, e.g. TP's first row id + 1, would tell where a group's rows sit in the source); _macros/seeded_key.sql */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk published ids's" AS
WITH grp AS (
  SELECT
    gid AS keyed,
    BOOL_AND(CAST(deleted AS BOOLEAN)) AS gone
  FROM "temp"."main"."wk seeded assignment's"
  WHERE
    gid > $base
  GROUP BY
    gid
)
SELECT
  keyed AS gid,
  CAST($base + ROW_NUMBER() OVER (ORDER BY gone, HASH(XOR(CAST("keyed" AS BIGINT), CAST($seed AS BIGINT))), keyed) AS BIGINT) AS pub
FROM grp
