/* purpose: the table or view a write target names in the working database (matched case-insensitively), as the catalog spells it */
/* params: schema, name */
/* returns: schema, name, kind (0 or 1 row) */
/* ref: DESIGN §6 (ldiv_db drops or replaces only its own releases); ldiv_db/core/ownership.py */
SELECT
  table_schema AS schema,
  table_name AS name,
  table_type AS kind
FROM information_schema.tables
WHERE
  table_catalog = CURRENT_DATABASE()
  AND LOWER(table_schema) = LOWER($schema)
  AND LOWER(table_name) = LOWER($name)
