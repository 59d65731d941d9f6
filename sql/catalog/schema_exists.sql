-- purpose: whether the working database has a schema of exactly this name
-- params: schema
-- returns: one row: found (true when the schema exists)
-- ref: issue 52 (PostgreSQL least privilege: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database
--      even where the schema exists, so an existing schema is never created again)
SELECT count(*) > 0 AS found
FROM information_schema.schemata
WHERE catalog_name = current_database() AND schema_name = $schema
