-- 0003: the tables each release owns. ldiv_db drops or replaces a table only when it is recorded here
-- (ldiv_db/ownership.py); everything else in the user's database is refused by name.
-- Append-only: never edit an applied migration.
CREATE TABLE ldiv.release_table (
    schema_name    VARCHAR NOT NULL,    -- the table, as the catalog spells it (working database)
    table_name     VARCHAR NOT NULL,
    release_schema VARCHAR NOT NULL,    -- the release (or stream) that wrote it: OUT of --output OUT
    release_name   VARCHAR NOT NULL,
    release_id     INTEGER NOT NULL,    -- the latest ldiv.release that wrote it
    rows           BIGINT,              -- row count when written
    digest         VARCHAR,             -- content hash when written (NULL: recorded before 0003)
    recorded_at    TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Backfill: the tables of the current (not superseded) releases that exist now. A release name is
-- the display string schema.name; the schema is the longest existing schema that prefixes it.
INSERT INTO ldiv.release_table (schema_name, table_name, release_schema, release_name, release_id, rows, digest)
WITH current_release AS (
    SELECT r.release_id, r.name, r.algorithm, r.rows_published, s.schema_name,
           substr(r.name, length(s.schema_name) + 2) AS base
    FROM ldiv.release AS r
    JOIN information_schema.schemata AS s
      ON s.catalog_name = current_database() AND starts_with(r.name, s.schema_name || '.')
    WHERE r.superseded_by IS NULL
    QUALIFY row_number() OVER (PARTITION BY r.release_id ORDER BY length(s.schema_name) DESC) = 1
),
owned AS (
    SELECT release_id, schema_name, base, rows_published,
           CASE WHEN algorithm = 'decomposition' THEN base || suffix ELSE base END AS table_name
    FROM current_release,
         unnest(CASE WHEN algorithm = 'decomposition' THEN ['_qid', '_sa', '_marginals'] ELSE [''] END) AS u(suffix)
)
SELECT t.table_schema, t.table_name, o.schema_name, o.base, o.release_id, o.rows_published, NULL
FROM owned AS o
JOIN information_schema.tables AS t
  ON t.table_catalog = current_database() AND t.table_schema = o.schema_name
 AND t.table_name = o.table_name AND t.table_type = 'BASE TABLE';
