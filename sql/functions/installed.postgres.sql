-- purpose: the revision of ldiv_db's SQL functions installed in this database, if any
-- params: none
-- returns: installed (1 when ldiv.sql_functions_version exists, else 0)
-- ref: issue 55 item 2; functions/version.postgres.sql
SELECT count(*) AS installed
FROM pg_proc AS p
JOIN pg_namespace AS n ON n.oid = p.pronamespace
WHERE n.nspname = 'ldiv' AND p.proname = 'sql_functions_version'
