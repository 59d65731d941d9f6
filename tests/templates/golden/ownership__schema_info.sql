/* purpose: where a write target's schema part points: a schema of the working database, or an attached database of that name */
/* params: schema */
/* returns: schema (the working database's spelling, NULL if none), attached (an attached database of that name), read_only */
/* ref: ldiv_db/core/ownership.py (outputs are written into an existing schema of the working database) */
SELECT
  (
    SELECT
      MIN(schema_name)
    FROM information_schema.schemata
    WHERE
      catalog_name = CURRENT_DATABASE() AND LOWER(schema_name) = LOWER($schema)
  ) AS schema,
  (
    SELECT
      COUNT(*) > 0
    FROM DUCKDB_DATABASES()
    WHERE
      LOWER(database_name) = LOWER($schema) AND database_name <> CURRENT_DATABASE()
  ) AS attached,
  (
    SELECT
      COALESCE(BOOL_OR(CAST(readonly AS BOOLEAN)), FALSE)
    FROM DUCKDB_DATABASES()
    WHERE
      LOWER(database_name) = LOWER($schema) AND database_name <> CURRENT_DATABASE()
  ) AS read_only
