-- purpose: whether a base table's rows share their row ids with other tables' rows (never on this engine: every table numbers its own rows)
-- params: schema, name
-- returns: shared (0 or 1 row)
-- ref: DESIGN §6 (the source's rows are identified by their row ids); the PostgreSQL variant beside this file
SELECT false AS shared
WHERE $schema IS NOT NULL AND $name IS NOT NULL
