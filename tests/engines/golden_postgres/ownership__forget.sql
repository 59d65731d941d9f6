/* purpose: forget that ldiv_db owns a table (it is being replaced, or loaded over by `ldiv load --replace`) */
/* params: schema, name */
/* returns: deletes from ldiv.release_table */
/* ref: ldiv_db/core/ownership.py */
DELETE FROM ldiv.release_table
WHERE
  LOWER(schema_name) = LOWER((
    CAST(%(schema)s AS TEXT)
  ))
  AND LOWER(table_name) = LOWER((
    CAST(%(name)s AS TEXT)
  ))
