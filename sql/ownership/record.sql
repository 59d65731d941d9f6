-- purpose: record that a release owns a table it has just written, with its fingerprint
-- params: schema, name, release_schema, release_name, release_id, rows, digest
-- returns: inserts one row of ldiv.release_table
-- ref: migrations/0003_release_table.sql; ldiv_db/core/ownership.py
INSERT INTO ldiv.release_table (schema_name, table_name, release_schema, release_name, release_id, rows, digest)
VALUES ($schema, $name, $release_schema, $release_name, $release_id, $rows, $digest)
