DROP TABLE IF EXISTS "pg_temp"."wk dec copy's";
/* purpose: keep a copy of a previous output table, read while the release replaces it */
/* params: none */
/* returns: creates target as a copy of source */
/* ref: DESIGN §6 (the previous release stays intact until the new one commits) */
CREATE TABLE "pg_temp"."wk dec copy's" AS
SELECT
  *
FROM "main"."select";
ANALYZE "pg_temp"."wk dec copy's"
