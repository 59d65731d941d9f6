-- purpose: the tables recorded for a release name (one, or Decomposition+'s three)
-- params: release_schema, release_name
-- returns: schema_name, table_name, release_id
-- ref: ldiv_db/core/ownership.py (a release replaces all of its tables or none)
SELECT schema_name, table_name, release_id
FROM ldiv.release_table
WHERE lower(release_schema) = lower($release_schema) AND lower(release_name) = lower($release_name)
ORDER BY table_name
