/* purpose: whether the working database has a schema of exactly this name */
/* params: schema */
/* returns: one row: found (true when the schema exists) */
/* ref: issue 52 (PostgreSQL least privilege: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database */
/*      even where the schema exists, so an existing schema is never created again) */
SELECT
  COUNT(*) > 0 AS found
FROM information_schema.schemata
WHERE
  catalog_name = CURRENT_DATABASE()
  AND schema_name = (
    CAST(%(schema)s AS TEXT)
  )
