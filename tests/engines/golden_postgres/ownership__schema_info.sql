/* purpose: where a write target's schema part points (PostgreSQL: no attached databases) */
/* params: schema */
/* returns: schema (the working database's spelling, NULL if none), attached, read_only */
/* ref: ldiv_db/core/ownership.py; the DuckDB template schema_info.sql */
SELECT
  (
    SELECT
      MIN(schema_name)
    FROM information_schema.schemata
    WHERE
      catalog_name = CURRENT_DATABASE()
      AND LOWER(schema_name) = LOWER((
        CAST(%(schema)s AS TEXT)
      ))
  ) AS schema,
  FALSE AS attached,
  FALSE AS read_only
