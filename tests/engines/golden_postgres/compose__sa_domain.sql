DROP TABLE IF EXISTS "pg_temp"."wk compose domain's";
/* purpose: the SA values the attacker knows to exist: the source's distinct non-NULL SA values, as text */
/* params: none */
/* returns: creates target(sa) */
/* ref: docs/decisions/0005-composition-check.md (a release that tells nothing about a target leaves it every value; a published unknown SA stands for every value) */
CREATE TABLE "pg_temp"."wk compose domain's" AS
SELECT DISTINCT
  CAST("ünï" AS TEXT) AS sa
FROM "main"."select"
WHERE
  NOT "ünï" IS NULL;
ANALYZE "pg_temp"."wk compose domain's"
