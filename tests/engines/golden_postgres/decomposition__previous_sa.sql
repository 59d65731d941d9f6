/* purpose: the published SA-table of the previous release (the value multisets of its groups, after noise), SA values as text */
/* params: none */
/* returns: gid, s1..sk ordered by gid */
/* ref: SPEC §4.3 (a starved row may join a published group) */
SELECT
  "group id" AS gid,
  CAST("ünï" AS TEXT) AS "s1",
  CAST("order" AS TEXT) AS "s2"
FROM "main"."rel it's_sa"
ORDER BY
  gid
