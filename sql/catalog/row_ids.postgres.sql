-- purpose: whether every row of a base table has a row id of its own: on PostgreSQL a row's id is its physical address (ctid), which each partition or inheritance child numbers on its own, so a partitioned table or an inheritance parent repeats it
-- params: schema, name
-- returns: problem (0 or 1 row): 'shared' for a partitioned table or an inheritance parent, else NULL
-- ref: DESIGN §6 (the source's rows are identified by their row ids); ldiv_db/db/postgres/dialect.py (rowid from ctid)
SELECT CASE WHEN c.relkind = 'p' OR EXISTS (
    SELECT 1 FROM pg_catalog.pg_inherits AS i WHERE i.inhparent = c.oid
) THEN 'shared' END AS problem
FROM pg_catalog.pg_class AS c
JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
WHERE n.nspname = $schema AND c.relname = $name
