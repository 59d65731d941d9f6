/* purpose: the distinct joint SA rows of the previous release's marginals (for the linkable sensitive values), as text */
/* params: none */
/* returns: s1..sk */
/* ref: SPEC §4.4 (LSV = projection of T_S joined with the group's primary values) */
SELECT DISTINCT
  CAST("ünï" AS TEXT) AS "s1",
  CAST("order" AS TEXT) AS "s2"
FROM "main"."rel it's_marginals"
