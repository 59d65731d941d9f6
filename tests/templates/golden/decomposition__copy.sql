/* purpose: keep a copy of a previous output table, read while the release replaces it */
/* params: none */
/* returns: creates target as a copy of source */
/* ref: DESIGN §6 (the previous release stays intact until the new one commits) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk dec copy's" AS
SELECT
  *
FROM "main"."select"
