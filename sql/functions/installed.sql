-- purpose: the revision of ldiv_db's SQL functions installed in this database, if any
-- params: none
-- returns: installed (1 when ldiv.sql_functions_version exists, else 0)
-- ref: issue 55 item 2; functions/version.sql
SELECT count(*) AS installed
FROM duckdb_functions()
WHERE schema_name = 'ldiv' AND function_name = 'sql_functions_version' AND database_name = current_database()
