/* purpose: store the row keys of a stream batch in the stream's private key table (created by the first release, appended to by every later one): the md5 of the key text, never the key itself */
/* params: offset */
/* returns: creates (first release) or inserts into target(rk, key_hash) */
/* ref: DESIGN §6 (a stream keys its rows); SPEC §4.3 */
INSERT INTO "ldiv"."keys:main.rel it's"
SELECT
  CAST((
    CAST(CAST('x' || ENCODE(TIDSEND(src.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1
  ) AS BIGINT) + (
    CAST(%(offset)s AS BIGINT)
  ) AS rk,
  MD5(CAST(TO_JSON(ARRAY[CAST(src."it's" AS TEXT), CAST(src."ünï" AS TEXT)]) AS TEXT)) AS key_hash
FROM "main"."select" AS src
