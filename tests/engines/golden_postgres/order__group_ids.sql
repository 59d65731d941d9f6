DROP TABLE IF EXISTS "pg_temp"."wk published ids's";
/* purpose: the published id of every group an algorithm formed: a seeded random permutation of 1..G (after $base, the ids a stream published already, which keep theirs); groups whose rows are all deleted come last */
/* params: seed, base */
/* returns: creates target(gid, pub): one row per group id above $base in the assignment; keyed is the identifier keyed (the key's column) */
/* ref: DESIGN §6 (group ids are opaque: an algorithm's id, e.g. TP's first row id + 1, would tell where a group's rows sit in the source); _macros/seeded_key.sql */
CREATE TABLE "pg_temp"."wk published ids's" AS
WITH grp AS (
  SELECT
    gid AS keyed,
    BOOL_AND(deleted) AS gone
  FROM "pg_temp"."wk seeded assignment's"
  WHERE
    gid > (
      CAST(%(base)s AS BIGINT)
    )
  GROUP BY
    gid
)
SELECT
  keyed AS gid,
  CAST((
    CAST(%(base)s AS BIGINT)
  ) + ROW_NUMBER() OVER (
    ORDER BY gone, (
      HASHTEXTEXTENDED(
        (
          COALESCE(
            CAST(LENGTH(
              CAST(CAST("keyed" AS BIGINT) # CAST((
                CAST(%(seed)s AS BIGINT)
              ) AS BIGINT) AS TEXT)
            ) AS TEXT) || ':' || CAST(CAST("keyed" AS BIGINT) # CAST((
              CAST(%(seed)s AS BIGINT)
            ) AS BIGINT) AS TEXT),
            'N'
          )
        ),
        0
      ) & 9223372036854775807
    ), keyed
  ) AS BIGINT) AS pub
FROM grp;
ANALYZE "pg_temp"."wk published ids's"
