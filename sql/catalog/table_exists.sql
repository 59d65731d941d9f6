-- purpose: does a table or view exist (catalog NULL = the current database)
-- params: catalog, schema, name
-- returns: present
-- ref: DESIGN §6 (refuse to overwrite an output without --replace)
SELECT count(*) > 0 AS present
FROM information_schema.tables
WHERE table_catalog = coalesce($catalog, current_database())
  AND table_schema = $schema
  AND lower(table_name) = lower($name)
