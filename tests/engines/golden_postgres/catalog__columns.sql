/* purpose: the columns of one resolved table, in table order (PostgreSQL: read from pg_catalog as information_schema.columns defines them — the same names, data_type spellings, positions and visibility — without the view's cost) */
/* params: catalog, schema, name */
/* returns: name, data_type, position */
/* ref: DESIGN §3; PostgreSQL's information_schema.columns (data_type: the base type of a domain, ARRAY, USER-DEFINED; a column is listed to a role that owns the table or holds a privilege on the column) */
SELECT
  a.attname AS name,
  CASE
    WHEN t.typtype = 'd'
    THEN CASE
      WHEN bt.typelem <> 0 AND bt.typlen = -1
      THEN 'ARRAY'
      WHEN nbt.nspname = 'pg_catalog'
      THEN FORMAT_TYPE(t.typbasetype, NULL)
      ELSE 'USER-DEFINED'
    END
    WHEN t.typelem <> 0 AND t.typlen = -1
    THEN 'ARRAY'
    WHEN nt.nspname = 'pg_catalog'
    THEN FORMAT_TYPE(a.atttypid, NULL)
    ELSE 'USER-DEFINED'
  END AS data_type,
  CAST(a.attnum AS INT) AS position
FROM pg_catalog.pg_attribute AS a
JOIN pg_catalog.pg_class AS c
  ON c.oid = a.attrelid
JOIN pg_catalog.pg_namespace AS nc
  ON nc.oid = c.relnamespace
JOIN pg_catalog.pg_type AS t
  ON t.oid = a.atttypid
JOIN pg_catalog.pg_namespace AS nt
  ON nt.oid = t.typnamespace
LEFT JOIN pg_catalog.pg_type AS bt
  ON t.typtype = 'd' AND bt.oid = t.typbasetype
LEFT JOIN pg_catalog.pg_namespace AS nbt
  ON nbt.oid = bt.typnamespace
WHERE
  CURRENT_DATABASE() = (
    CAST(%(catalog)s AS TEXT)
  )
  AND nc.nspname = (
    CAST(%(schema)s AS TEXT)
  )
  AND c.relname = (
    CAST(%(name)s AS TEXT)
  )
  AND a.attnum > 0
  AND NOT a.attisdropped
  AND c.relkind IN ('r', 'v', 'f', 'p', 'm')
  AND (
    PG_HAS_ROLE(c.relowner, 'USAGE')
    OR HAS_COLUMN_PRIVILEGE(c.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES')
  )
ORDER BY
  a.attnum
