-- purpose: whether DuckDB's catalog proves that the text of the table a statement naming [catalog.]schema.name reads compares by its bytes, so no column folds spellings and catalog/sa_spellings.sql need not count them on the data
-- params: catalog, schema, name
-- returns: one row: bytes_only (catalog and schema may be NULL; true only if no default_collation is set, some DuckDB table has that name, and every table or view the name could resolve to is a DuckDB table whose definition names no COLLATE)
-- ref: ldiv_db/core/inputs.py folded_columns. DuckDB takes a comparison's collation from the column's definition (its
--      CREATE TABLE text in duckdb_tables(), ALTER and CREATE TABLE AS included), a COLLATE in a view's query, or the
--      default_collation setting; a view, a table of another engine's attached database, or any COLLATE in the text
--      leaves the answer false (the spellings are then counted). Every candidate of the name is checked: the temp catalog's,
--      and with no catalog, a database named like the schema (DuckDB may read a two-part name as catalog.name)
WITH objects AS (
    SELECT
        t.database_name,
        t.schema_name,
        t.table_name AS name,
        'table' AS kind,
        coalesce(d.type = 'duckdb' AND NOT contains(upper(t.sql), 'COLLATE'), false) AS clean
    FROM duckdb_tables() AS t
    LEFT JOIN duckdb_databases() AS d ON d.database_name = t.database_name
    UNION ALL
    SELECT database_name, schema_name, view_name, 'view', false
    FROM duckdb_views()
),
candidates AS (
    SELECT kind, clean
    FROM objects
    WHERE lower(name) = lower($name)
      AND CASE
          WHEN $catalog IS NOT NULL
              THEN lower(database_name) = lower($catalog) AND lower(schema_name) = lower($schema)
          ELSE $schema IS NULL OR lower(schema_name) = lower($schema) OR lower(database_name) = lower($schema)
      END
)
SELECT
    coalesce(current_setting('default_collation'), '') = ''
    AND count(*) FILTER (WHERE kind = 'table') > 0
    AND bool_and(clean) AS bytes_only
FROM candidates
