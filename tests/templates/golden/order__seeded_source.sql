/* purpose: the source as every algorithm reads it: all its rows and columns, stored in the order of the seeded tie key, each with the source row id it stands for */
/* params: seed */
/* returns: creates target(ldiv_source_rowid, <columns>): the copy's own row ids follow the key, so any tie an algorithm breaks by row id or row order is broken by the key; keyed is the identifier ldiv_source_rowid */
/* ref: DESIGN §6 (nothing published is a function of the source's row ids or row order); _macros/seeded_key.sql; ldiv_db/pipeline/opaque.py (the rows map back to the source's ids before anything is written) */
CREATE OR REPLACE TEMPORARY TABLE "temp"."main"."wk seeded it's's" AS
WITH rows_in AS (
  SELECT
    CAST(rowid AS BIGINT) AS ldiv_source_rowid,
    "it's",
    "a""b",
    "Zip Code",
    "select",
    "ünï",
    "group",
    "order"
  FROM "main"."select"
)
SELECT
  ldiv_source_rowid,
  "it's",
  "a""b",
  "Zip Code",
  "select",
  "ünï",
  "group",
  "order"
FROM rows_in
ORDER BY
  HASH(XOR(CAST("ldiv_source_rowid" AS BIGINT), CAST($seed AS BIGINT))),
  ldiv_source_rowid
